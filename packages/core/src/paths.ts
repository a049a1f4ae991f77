import os from 'node:os';
import path from 'node:path';

const appName = 'rhizome';

/** The platform's per-user data directory for Rhizome, overridable by RHIZOME_DATA_DIR. */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RHIZOME_DATA_DIR) return path.resolve(env.RHIZOME_DATA_DIR);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', appName);
  if (process.platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), appName, appName);
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), appName);
}

/** The platform's per-user configuration directory (registry auth.json lives here), overridable by RHIZOME_CONFIG_DIR. */
export function resolveConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RHIZOME_CONFIG_DIR) return path.resolve(env.RHIZOME_CONFIG_DIR);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', appName);
  if (process.platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), appName, appName);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), appName);
}

/** Every well-known location under one data directory (docs/api-conventions.md#data-directory). */
export class DataPaths {
  constructor(readonly root: string) {}

  get settingsFile(): string {
    return path.join(this.root, 'settings.json');
  }
  get credentialsFile(): string {
    return path.join(this.root, 'credentials.json');
  }
  get secretsDir(): string {
    return path.join(this.root, 'secrets');
  }
  get queueDb(): string {
    return path.join(this.root, 'queue.db');
  }
  get systemDb(): string {
    return path.join(this.root, 'system.db');
  }
  get logsDir(): string {
    return path.join(this.root, 'logs');
  }
  get databasesDir(): string {
    return path.join(this.root, 'databases');
  }
  get runDir(): string {
    return path.join(this.root, 'run');
  }
  /** Converted model files (the builtin embedder's vectors); RHIZOME_MODELS_DIR lets installs share one copy. */
  modelsDir(env: NodeJS.ProcessEnv = process.env): string {
    return env.RHIZOME_MODELS_DIR ? path.resolve(env.RHIZOME_MODELS_DIR) : path.join(this.root, 'models');
  }

  logFile(service: string): string {
    return path.join(this.logsDir, `${service}.log`);
  }
  secretFile(name: string): string {
    return path.join(this.secretsDir, name);
  }
  databaseDir(name: string): string {
    return path.join(this.databasesDir, name);
  }
  appDb(name: string): string {
    return path.join(this.databaseDir(name), 'app.db');
  }
  migrationBackupsDir(name: string): string {
    return path.join(this.databaseDir(name), 'backups');
  }
  operatorBackupsDir(name: string): string {
    return path.join(this.root, 'backups', name);
  }
}
