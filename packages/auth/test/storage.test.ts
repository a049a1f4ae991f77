import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountService } from '../src/account.ts';
import { SecretName, ensureSecrets, readOrCreateSecret } from '../src/secrets.ts';
import { Verifier } from '../src/verifier.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-auth-unit-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('readOrCreateSecret', () => {
  it('creates a 0600 file once; later calls and other readers agree', () => {
    const secretsDir = path.join(tempDir(), 'secrets');
    const first = readOrCreateSecret(secretsDir, SecretName.session);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(secretsDir, SecretName.session);
    expect(mode(file)).toBe(0o600);
    expect(mode(secretsDir)).toBe(0o700);
    expect(readOrCreateSecret(secretsDir, SecretName.session)).toBe(first);
    expect(fs.readFileSync(file, 'utf8')).toBe(first);
  });

  it('gives every secret its own value', async () => {
    const secretsDir = path.join(tempDir(), 'secrets');
    await ensureSecrets(secretsDir);
    const values = Object.values(SecretName).map((name) => {
      expect(mode(path.join(secretsDir, name))).toBe(0o600);
      return readOrCreateSecret(secretsDir, name);
    });
    expect(new Set(values).size).toBe(values.length);
  });

  it('keeps an existing secret written by someone else', () => {
    const secretsDir = path.join(tempDir(), 'secrets');
    fs.mkdirSync(secretsDir);
    fs.writeFileSync(path.join(secretsDir, SecretName.edgeToken), 'preset-token\n', { mode: 0o600 });
    expect(readOrCreateSecret(secretsDir, SecretName.edgeToken)).toBe('preset-token');
  });
});

describe('credentials.json', () => {
  it('is mode 0600 and holds no plaintext password or key', async () => {
    const dir = tempDir();
    const credentialsFile = path.join(dir, 'credentials.json');
    const verifier = new Verifier({ credentialsFile, secretsDir: path.join(dir, 'secrets') }, () => 'cc_session');
    const account = new AccountService(verifier, () => ({ name: 'cc_session', ttlSeconds: 60, secure: false }));
    const password = 'plaintext-password-123';
    await account.setup('operator', password);
    expect(mode(credentialsFile)).toBe(0o600);

    const created = await account.createKey('ci');
    const keyBody = created.key.slice('cc_live_'.length);
    await account.changePassword(password, 'another-password-456');
    // Every rewrite keeps the mode.
    expect(mode(credentialsFile)).toBe(0o600);

    const raw = fs.readFileSync(credentialsFile, 'utf8');
    for (const secret of [password, 'another-password-456', created.key, keyBody]) expect(raw).not.toContain(secret);
    const stored = JSON.parse(raw);
    expect(stored).toMatchObject({ account: { username: 'operator' }, session_epoch: 1 });
    expect(stored.account.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.api_keys).toHaveLength(1);
    expect(stored.api_keys[0].hash).toMatch(/^\$2[aby]\$/);
    // No stray temp files next to it.
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('API key verification', () => {
  it('checks a key many clients present at once with one bcrypt comparison, and caches the answer', async () => {
    const dir = tempDir();
    const verifier = new Verifier(
      { credentialsFile: path.join(dir, 'credentials.json'), secretsDir: path.join(dir, 'secrets') },
      () => 'cc_session',
    );
    const account = new AccountService(verifier, () => ({ name: 'cc_session', ttlSeconds: 60, secure: false }));
    await account.setup('operator', 'plaintext-password-123');
    const { key } = await account.createKey('ci');
    const authorization = `Bearer ${key}`;

    const concurrent = Array.from({ length: 32 }, () => verifier.verify({ authorization }));
    expect(concurrent.every((answer) => answer instanceof Promise)).toBe(true);
    expect(new Set(concurrent).size).toBe(1);
    for (const identity of await Promise.all(concurrent))
      expect(identity).toMatchObject({ username: 'operator', method: 'api_key' });
    // Verified once, a key is answered without a promise.
    expect(verifier.verify({ authorization })).toMatchObject({ username: 'operator', method: 'api_key' });

    const wrong = `Bearer ${key.slice(0, -1)}${key.at(-1) === 'A' ? 'B' : 'A'}`;
    const refused = Array.from({ length: 8 }, () => verifier.verify({ authorization: wrong }));
    expect(new Set(refused).size).toBe(1);
    expect(await Promise.all(refused)).toEqual(Array(8).fill(null));
  });
});
