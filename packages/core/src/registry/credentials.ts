import fs from 'node:fs';
import path from 'node:path';

/**
 * The registry credentials (docs/api-conventions.md#authentication, item 6): an access token and the registry it is for,
 * in `auth.json` in the configuration directory, mode 0600, created on login and removed on logout. A
 * `credentials.json` of earlier releases is never read.
 */
export interface RegistryCredentials {
  registry_url: string;
  token: string;
  username: string | null;
  refresh_token: string | null;
  /** ISO 8601, when the registry said the token expires; null when it did not say. */
  expires_at: string | null;
  saved_at: string;
}

export class CredentialsFile {
  constructor(private readonly configDir: string) {}

  get path(): string {
    return path.join(this.configDir, 'auth.json');
  }

  /** The stored credentials, or null when there are none or the file is unreadable. */
  read(): RegistryCredentials | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(this.path, 'utf8'));
    } catch {
      return null;
    }
    const stored = parsed as Partial<RegistryCredentials> | null;
    if (!stored || typeof stored.token !== 'string' || !stored.token || typeof stored.registry_url !== 'string')
      return null;
    return {
      registry_url: stored.registry_url,
      token: stored.token,
      username: typeof stored.username === 'string' ? stored.username : null,
      refresh_token: typeof stored.refresh_token === 'string' ? stored.refresh_token : null,
      expires_at: typeof stored.expires_at === 'string' ? stored.expires_at : null,
      saved_at: typeof stored.saved_at === 'string' ? stored.saved_at : '',
    };
  }

  /** Written beside its final name with mode 0600 from the start, then renamed in. */
  write(credentials: Omit<RegistryCredentials, 'saved_at'>): RegistryCredentials {
    const saved = { ...credentials, saved_at: new Date().toISOString() };
    fs.mkdirSync(this.configDir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(saved, null, 2), { mode: 0o600 });
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, this.path);
    return saved;
  }

  remove(): void {
    fs.rmSync(this.path, { force: true });
  }
}
