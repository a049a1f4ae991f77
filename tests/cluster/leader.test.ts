import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type ClusterNode } from '../support/cluster.ts';
import { until, untilHolds } from '../support/wait.ts';

interface ListedNode {
  id: string;
  host: string;
  pid: number;
  role: 'leader' | 'follower';
  started_at: string;
  last_heartbeat: string;
  alive: boolean;
  self: boolean;
}

let cluster: Cluster;
let cookie: string;

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2 });
  const setup = await cluster.nodes[0].call('POST', '/auth/setup', {
    body: { username: 'operator', password: 'correct horse battery' },
  });
  expect(setup.status).toBe(201);
  cookie = setup.cookie!;
  // The other node reads the new account on the announcement, a moment later.
  await until(async () => (await cluster.nodes[1].call('GET', '/auth/me', { cookie })).status === 200, {
    timeoutMs: 5_000,
    what: 'node b to accept the cookie node a issued',
  });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

async function nodesSeenBy(node: ClusterNode): Promise<ListedNode[]> {
  const health = await node.call('GET', '/health', { cookie });
  expect(health.status).toBe(200);
  return (health.body as { nodes: ListedNode[] }).nodes;
}

/** The holders of the background lease's advisory lock, as the server sees them. */
async function leaseHolders(): Promise<number> {
  const count = await cluster.postgres.superuser(
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 1380473422 AND objid = hashtext('rhizome:background')::oid",
    'rhizome',
  );
  return Number(count.trim());
}

const started = /background jobs started/;

/** Two API nodes on one PostgreSQL server: one of them runs the deployment's background work. */
describe('one leader for background work', () => {
  it('has exactly one leader of two nodes, which alone started the background jobs', async () => {
    const [a, b] = cluster.nodes;
    const nodes = await untilHolds(
      () => nodesSeenBy(b),
      (listed) => listed.length === 2 && listed.filter((node) => node.role === 'leader').length === 1,
      { timeoutMs: 15_000, what: 'two nodes, one leader' },
    );
    const leader = nodes.find((node) => node.role === 'leader')!;
    // The node that started first took the lease; the other follows and started none of the jobs.
    expect(leader.pid).toBe(a.pid());
    expect(nodes.map((node) => node.pid).sort()).toEqual([a.pid(), b.pid()].sort());
    expect(nodes.every((node) => node.alive && node.host && node.started_at && node.last_heartbeat)).toBe(true);
    expect(nodes.find((node) => node.self)!.pid).toBe(b.pid());
    expect(a.output()).toMatch(started);
    expect(b.output()).not.toMatch(started);
    expect(await leaseHolders()).toBe(1);
    const status = await a.call('GET', '/logs/status', { cookie });
    expect(status.body).toMatchObject({ available: false, services: [] });
    expect((status.body as { nodes: ListedNode[] }).nodes).toHaveLength(2);
  });

  it('moves the background work to the other node within 15 s when the leader is killed', async () => {
    const [a, b] = cluster.nodes;
    await a.kill();
    const killedAt = Date.now();
    const nodes = await untilHolds(
      () => nodesSeenBy(b),
      (listed) => listed.some((node) => node.self && node.role === 'leader'),
      { timeoutMs: 20_000, intervalMs: 50, what: 'B to lead' },
    );
    const failoverMs = Date.now() - killedAt;
    console.log(`leader killed (kill -9): the other node leads after ${failoverMs} ms`);
    expect(failoverMs).toBeLessThanOrEqual(15_000);
    await untilHolds(
      () => b.output(),
      (output) => started.test(output),
      { timeoutMs: 5_000, what: 'B to start the background jobs' },
    );
    // The survivor lists both: itself leading, the killed node no longer a leader.
    expect(nodes).toHaveLength(2);
    expect(nodes.filter((node) => node.role === 'leader').map((node) => node.pid)).toEqual([b.pid()]);
    expect(nodes.find((node) => !node.self)).toMatchObject({ role: 'follower' });
    expect(await leaseHolders()).toBe(1);
  }, 60_000);

  it('takes the restarted node back as a follower, the lease staying where it is', async () => {
    const [a, b] = cluster.nodes;
    const killedPid = a.pid();
    await a.start();
    const nodes = await untilHolds(
      () => nodesSeenBy(a),
      (listed) => listed.some((node) => node.self),
      { timeoutMs: 15_000, what: 'the restarted node to list itself' },
    );
    expect(nodes.find((node) => node.self)).toMatchObject({ role: 'follower', alive: true, pid: a.pid() });
    expect(nodes.filter((node) => node.role === 'leader').map((node) => node.pid)).toEqual([b.pid()]);
    // The killed process stays listed until it is forgotten, not alive once its heartbeats stop.
    expect(nodes.find((node) => node.pid === killedPid)).toMatchObject({ role: 'follower' });
    expect(a.output()).not.toMatch(started);
    expect(await leaseHolders()).toBe(1);
  }, 60_000);
});
