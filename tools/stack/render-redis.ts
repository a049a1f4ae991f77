import { configSafe, renderTemplate } from './template.ts';

export interface RedisConfOptions {
  port: number;
  password: string;
  /** Where the append-only file and snapshots live (`<data_dir>/valkey`). */
  dataDir: string;
  logsDir: string;
}

export async function renderRedisConf(options: RedisConfOptions): Promise<string> {
  return renderTemplate('valkey.conf.template', {
    PORT: String(options.port),
    PASSWORD: configSafe('queue password', options.password),
    DATA_DIR: configSafe('queue store dir', options.dataDir),
    LOGS_DIR: configSafe('logs dir', options.logsDir),
  });
}
