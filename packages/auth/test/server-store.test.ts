import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessPubSub } from '../../queue/src/in-process-pubsub.ts';
import { AccountService } from '../src/account.ts';
import { ServerAuthStore } from '../src/server-store.ts';
import { Verifier } from '../src/verifier.ts';
import { startPostgres, type TestPostgres } from '../../../tests/support/postgres.ts';
import { until } from '../../../tests/support/wait.ts';

let postgres: TestPostgres;
let pool: pg.Pool;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.url });
}, 60_000);
afterAll(async () => {
  for (const close of closers) await close();
  await pool.end();
  await postgres.stop();
});

const cookie = { name: 'cc_session', ttlSeconds: 3600, secure: false };
const sql = { query: async (text: string, values?: unknown[]) => (await pool.query(text, values)).rows };

/** One process of a deployment: its own data directory, the server's credentials and the shared pub/sub. */
async function process(
  schema: string,
  pubsub: InProcessPubSub,
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-')),
) {
  const importFrom = {
    credentialsFile: path.join(dataDir, 'credentials.json'),
    secretsDir: path.join(dataDir, 'secrets'),
  };
  const { store, stores } = await ServerAuthStore.open(sql, pubsub, { schema, importFrom });
  closers.push(() => store.close());
  const verifier = new Verifier(stores, () => cookie.name);
  return { store, verifier, account: new AccountService(verifier, () => cookie) };
}

describe('credentials on a PostgreSQL server', () => {
  it('signs in on one process with a cookie another issued, and sees a revocation made elsewhere', async () => {
    const pubsub = new InProcessPubSub();
    const [a, b] = await Promise.all([process('auth_a', pubsub), process('auth_a', pubsub)]);
    const setUp = await a.account.setup('operator', 'correct horse battery');
    await expect(b.account.setup('intruder', 'another password')).rejects.toThrow('already set up');
    const session = setUp.setCookie!.split(';')[0];
    expect(b.verifier.verify({ cookie: session })).toMatchObject({ username: 'operator', method: 'cookie' });
    const key = await b.account.createKey('ci');
    const accepted = await until(
      async () => (await a.verifier.verify({ authorization: `Bearer ${key.key}` })) ?? false,
      {
        what: 'the new key to be accepted by the other process',
      },
    );
    expect(accepted).toMatchObject({ method: 'api_key' });
    await a.account.revokeKey(key.id);
    await until(async () => (await b.verifier.verify({ authorization: `Bearer ${key.key}` })) === null, {
      what: 'the revoked key to be refused by the other process',
    });
    await b.account.logout();
    await until(async () => (await a.verifier.verify({ cookie: session })) === null, {
      what: 'the logged-out session to be refused by the other process',
    });
  });

  it('applies a change made on a stale copy to the newer credentials', async () => {
    // Two processes that hear nothing of each other: the second's copy is stale when it changes them.
    const [a, b] = await Promise.all([
      process('auth_b', new InProcessPubSub()),
      process('auth_b', new InProcessPubSub()),
    ]);
    await a.account.setup('operator', 'correct horse battery');
    await b.store.refresh();
    await a.account.createKey('second');
    const third = await b.account.createKey('third');
    expect(third.name).toBe('third');
    const [row] = await sql.query('SELECT content FROM auth_b.auth_credentials');
    const names = (JSON.parse(String(row.content)) as { api_keys: { name: string }[] }).api_keys.map((key) => key.name);
    expect(names).toEqual(expect.arrayContaining(['second', 'third']));
  });

  it("takes over the data directory's account and session secret when the server has none", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-files-'));
    const files = {
      credentialsFile: path.join(dataDir, 'credentials.json'),
      secretsDir: path.join(dataDir, 'secrets'),
    };
    const onFiles = new AccountService(new Verifier(files, () => cookie.name), () => cookie);
    const session = (await onFiles.setup('operator', 'correct horse battery')).setCookie!.split(';')[0];
    const moved = await process('auth_c', new InProcessPubSub(), dataDir);
    expect(moved.verifier.verify({ cookie: session })).toMatchObject({ username: 'operator' });
  });
});
