import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type ClusterNode } from '../support/cluster.ts';
import { until, untilHolds } from '../support/wait.ts';

let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let password = 'correct horse battery';

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2 });
  [a, b] = cluster.nodes;
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

async function login(node: ClusterNode): Promise<string> {
  const result = await node.call('POST', '/auth/login', { body: { username: 'operator', password } });
  expect(result.status).toBe(200);
  return result.cookie!;
}

/** Milliseconds from `started` until `probe` holds, polled every 10 ms. */
async function elapsedUntil(started: number, probe: () => Promise<boolean>, what: string): Promise<number> {
  await until(probe, { timeoutMs: 10_000, intervalMs: 10, what });
  return Date.now() - started;
}

/** Two `rhizome serve` processes on their own data directories, one PostgreSQL server: one service. */
describe('two nodes on one PostgreSQL server', () => {
  it('accepts on node B the cookie node A issued', async () => {
    const setup = await a.call('POST', '/auth/setup', { body: { username: 'operator', password } });
    expect(setup.status).toBe(201);
    // B learns of the new account from the announcement: cookies are checked against its copy, synchronously.
    const ms = await elapsedUntil(
      Date.now(),
      async () => (await b.call('GET', '/auth/me', { cookie: setup.cookie })).status === 200,
      'B to accept the cookie of the account set up on A',
    );
    console.log(`account set up on A: its cookie accepted by B after ${ms} ms`);
    expect(ms).toBeLessThanOrEqual(1_000);
    expect((await b.call('GET', '/auth/me', { cookie: setup.cookie })).body).toEqual({ username: 'operator' });
    const cookie = await login(a);
    expect((await b.call('GET', '/auth/me', { cookie })).status).toBe(200);
    // And the other way round: a sign-in on B holds on A.
    expect((await a.call('GET', '/auth/me', { cookie: await login(b) })).status).toBe(200);
  });

  it('refuses on B, within a second, an API key created and then revoked on A', async () => {
    const cookie = await login(a);
    const times: number[] = [];
    const accepted: number[] = [];
    for (let round = 0; round < 5; round++) {
      const created = await a.call('POST', '/auth/keys', { cookie, body: { name: `cluster-${round}` } });
      expect(created.status).toBe(201);
      const { key, id } = created.body as { key: string; id: string };
      // B accepts the key (and keeps it in its cache of verified keys) before the revocation.
      accepted.push(
        await elapsedUntil(
          Date.now(),
          async () => (await b.call('GET', '/auth/me', { key })).status === 200,
          'B to accept the key A created',
        ),
      );
      const started = Date.now();
      expect((await a.call('DELETE', `/auth/keys/${id}`, { cookie })).status).toBe(204);
      times.push(
        await elapsedUntil(
          started,
          async () => (await b.call('GET', '/auth/me', { key })).status === 401,
          'B to refuse the revoked key',
        ),
      );
      expect((await a.call('GET', '/auth/me', { key })).status).toBe(401);
    }
    console.log(`key created on A accepted by B after ${accepted.join(', ')} ms`);
    console.log(`revocation sent to A refused by B after ${times.join(', ')} ms (max ${Math.max(...times)} ms)`);
    expect(Math.max(...accepted)).toBeLessThanOrEqual(1_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(1_000);
  });

  it('applies on B a setting changed on A', async () => {
    const cookie = await login(a);
    const started = Date.now();
    const patched = await a.call('PATCH', '/settings', { cookie, body: { app_name: 'One brain, two nodes' } });
    expect(patched.status).toBe(200);
    const ms = await elapsedUntil(
      started,
      async () =>
        ((await b.call('GET', '/settings', { cookie })).body as { app_name?: string }).app_name ===
        'One brain, two nodes',
      'B to read the new setting',
    );
    console.log(`setting changed on A read on B after ${ms} ms`);
    expect(ms).toBeLessThanOrEqual(2_000);
  });

  it('makes the database created and switched to on A the active database on B', async () => {
    const cookie = await login(a);
    expect((await a.call('POST', '/databases', { cookie, body: { name: 'notes' } })).status).toBe(201);
    const listed = await untilHolds(
      async () => (await b.call('GET', '/databases', { cookie })).body as { databases: { name: string }[] },
      (body) => body.databases.some((database) => database.name === 'notes'),
      { timeoutMs: 5_000, what: 'B to list the database A created' },
    );
    expect(listed.databases.map((database) => database.name)).toEqual(['default', 'notes']);
    expect((await a.call('PATCH', '/databases/current', { cookie, body: { name: 'notes' } })).status).toBe(200);
    await untilHolds(
      async () => (await b.call('GET', '/databases/current', { cookie })).body,
      (body) => (body as { current: string }).current === 'notes',
      { timeoutMs: 2_000, what: 'B to name notes the active database' },
    );
    // B's requests without a database header read it too.
    expect((await b.call('GET', '/counts', { cookie })).body).toMatchObject({ database: 'notes' });
    expect((await a.call('PATCH', '/databases/current', { cookie, body: { name: 'default' } })).status).toBe(200);
    await untilHolds(
      async () => (await b.call('GET', '/counts', { cookie })).body,
      (body) => (body as { database: string }).database === 'default',
      { timeoutMs: 2_000, what: 'B to be back on the default database' },
    );
  });

  it('ends on B the sessions a logout on A ended', async () => {
    const cookie = await login(b);
    expect((await b.call('GET', '/auth/me', { cookie })).status).toBe(200);
    const started = Date.now();
    expect((await a.call('POST', '/auth/logout', { cookie })).status).toBe(204);
    const ms = await elapsedUntil(
      started,
      async () => (await b.call('GET', '/auth/me', { cookie })).status === 401,
      'B to refuse the logged-out session',
    );
    console.log(`logout on A ended the session on B after ${ms} ms`);
    expect(ms).toBeLessThanOrEqual(1_000);
  });

  it('ends on B the sessions a password change on A ended, and B signs in with the new password', async () => {
    const onB = await login(b);
    const onA = await login(a);
    const changed = await a.call('POST', '/auth/password', {
      cookie: onA,
      body: { old_password: password, new_password: 'a different battery staple' },
    });
    expect(changed.status).toBe(204);
    // Measured from A's answer: hashing the new password is A's work, not the propagation's.
    const started = Date.now();
    const ms = await elapsedUntil(
      started,
      async () => (await b.call('GET', '/auth/me', { cookie: onB })).status === 401,
      'B to refuse the session the password change ended',
    );
    console.log(`password change answered by A ended the session on B after ${ms} ms`);
    expect(ms).toBeLessThanOrEqual(1_000);
    expect((await b.call('POST', '/auth/login', { body: { username: 'operator', password } })).status).toBe(401);
    password = 'a different battery staple';
    expect((await b.call('GET', '/auth/me', { cookie: await login(b) })).status).toBe(200);
  });
});
