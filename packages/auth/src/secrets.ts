import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Secret files under `<data_dir>/secrets/` (docs/api-conventions.md#data-directory), each created once with mode 0600. */
export const SecretName = {
  session: 'session_secret',
  edgeToken: 'edge_auth_token',
  supervisorPassword: 'supervisor_password',
  queuePassword: 'queue_password',
} as const;

/**
 * Reads a secret, creating it when missing. Creation uses O_EXCL so that two processes starting
 * together agree on one value: the loser of the race reads the winner's file.
 */
export function readOrCreateSecret(secretsDir: string, name: string): string {
  const file = path.join(secretsDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, value, { flag: 'wx', mode: 0o600 });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return waitForContent(file);
  }
}

function waitForContent(file: string): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = fs.readFileSync(file, 'utf8').trim();
    if (value) return value;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  throw new Error(`secret file ${file} stayed empty`);
}

export async function ensureSecrets(secretsDir: string): Promise<void> {
  for (const name of Object.values(SecretName)) readOrCreateSecret(secretsDir, name);
}
