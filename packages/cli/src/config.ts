import fs from 'node:fs';
import path from 'node:path';
import { resolveConfigDir } from '@rhizome/core/paths';

/** What `rhizome login` keeps: the server and its API key, readable by the owner only. */
export interface CliLogin {
  url: string;
  api_key: string;
}

export const loginFile = (env: NodeJS.ProcessEnv = process.env) => path.join(resolveConfigDir(env), 'cli.json');

export function readLogin(env: NodeJS.ProcessEnv = process.env): CliLogin | null {
  try {
    const stored = JSON.parse(fs.readFileSync(loginFile(env), 'utf8')) as Partial<CliLogin>;
    return typeof stored.url === 'string' && typeof stored.api_key === 'string'
      ? { url: stored.url, api_key: stored.api_key }
      : null;
  } catch {
    return null;
  }
}

export function writeLogin(login: CliLogin, env: NodeJS.ProcessEnv = process.env): string {
  const file = loginFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written under a temporary name created 0600, so the key is never readable by others, not even briefly.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  fs.chmodSync(file, 0o600);
  return file;
}
