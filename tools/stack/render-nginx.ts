import { configSafe, renderTemplate } from './template.ts';

export interface NginxConfOptions {
  /** Public listen address, e.g. `127.0.0.1:8888`. */
  listenHost: string;
  listenPort: number;
  /** `host:port` of cortex-api and of auth-verify. */
  apiUpstream: string;
  authUpstream: string;
  runDir: string;
  logsDir: string;
  edgeToken: string;
  /** Workers of a root master run as `nobody` unless told otherwise, and then cannot use the run dir. */
  runAsRoot: boolean;
}

export async function renderNginxConf(options: NginxConfOptions): Promise<string> {
  const host = options.listenHost.includes(':') ? `[${options.listenHost}]` : options.listenHost;
  return renderTemplate('nginx/nginx.conf.template', {
    USER_LINE: options.runAsRoot ? 'user root;' : '',
    RUN_DIR: configSafe('run dir', options.runDir),
    LOGS_DIR: configSafe('logs dir', options.logsDir),
    LISTEN: configSafe('listen address', `${host}:${options.listenPort}`),
    API_UPSTREAM: configSafe('api upstream', options.apiUpstream),
    AUTH_UPSTREAM: configSafe('auth upstream', options.authUpstream),
    EDGE_TOKEN: configSafe('edge token', options.edgeToken),
  });
}
