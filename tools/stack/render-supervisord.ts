import { configSafe, renderTemplate } from './template.ts';

export interface SupervisordConfOptions {
  repoDir: string;
  dataDir: string;
  configDir: string;
  runDir: string;
  logsDir: string;
  supervisorPort: number;
  supervisorPassword: string;
  apiPort: number;
  authPort: number;
  queueUrl: string;
  supervisorUrl: string;
  nodeBin: string;
  nginxBin: string;
  queueStoreBin: string;
}

export async function renderSupervisordConf(options: SupervisordConfOptions): Promise<string> {
  return renderTemplate('supervisord.conf', {
    REPO_DIR: configSafe('repo dir', options.repoDir),
    DATA_DIR: configSafe('data dir', options.dataDir),
    CONFIG_DIR: configSafe('config dir', options.configDir),
    RUN_DIR: configSafe('run dir', options.runDir),
    LOGS_DIR: configSafe('logs dir', options.logsDir),
    SUPERVISOR_PORT: String(options.supervisorPort),
    SUPERVISOR_PASSWORD: configSafe('supervisor password', options.supervisorPassword),
    API_PORT: String(options.apiPort),
    AUTH_PORT: String(options.authPort),
    QUEUE_URL: configSafe('queue URL', options.queueUrl),
    SUPERVISOR_URL: configSafe('supervisor URL', options.supervisorUrl),
    NODE_BIN: configSafe('node binary', options.nodeBin),
    NGINX_BIN: configSafe('nginx binary', options.nginxBin),
    QUEUE_STORE_BIN: configSafe('queue store binary', options.queueStoreBin),
  });
}
