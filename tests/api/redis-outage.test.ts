// Nodes created while Redis is down: their embedding workflow cannot be queued, which cortex-api logs as an
// error, and its node vector sweep embeds them once they are old enough to count as left behind.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { call, tempDataDir } from '../support/server.ts';
import { startService, type ServiceProcess } from '../support/services.ts';
import { until } from '../support/wait.ts';

const sweepSeconds = 2;
const account = { username: 'operator', password: 'correct-horse-battery' };

/** The messages of cortex-api's error-level log lines. */
function errorLines(dataDir: string): string[] {
  const file = path.join(dataDir, 'logs/cortex.log');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; message: string })
    .filter((entry) => entry.level === 'error')
    .map((entry) => entry.message);
}

describe('nodes created while Redis is down (cortex-api and neuron-worker as separate processes)', () => {
  const services: ServiceProcess[] = [];
  const stores: TestRedis[] = [];
  afterEach(async () => {
    for (const service of services.splice(0).reverse()) await service.stop();
    for (const store of stores.splice(0)) await store.stop();
  });

  it('get their vector once it is back, and every workflow that did not start is logged as an error', async () => {
    const redisPort = await freePort();
    stores.push(await startRedis(redisPort));
    const dataDir = tempDataDir();
    const env = {
      RHIZOME_DATA_DIR: dataDir,
      RHIZOME_QUEUE_URL: `redis://127.0.0.1:${redisPort}/0`,
      RHIZOME_SETTINGS__EMBEDDING__VECTOR_SWEEP_INTERVAL_SECONDS: String(sweepSeconds),
    };
    const cortex = startService('services/cortex-api/src/main.ts', { ...env, PORT: String(await freePort()) });
    services.push(cortex);
    const [, url] = await cortex.waitFor(/cortex-api listening on (http:\/\/[\d.:]+)/);
    const worker = startService('services/neuron-worker/src/main.ts', env);
    services.push(worker);
    await worker.waitFor(/neuron-worker ready/);

    const base = `${url}/api/v1`;
    const { cookie } = await call(base, 'POST', '/auth/setup', { body: account });
    const send = (method: string, route: string, body?: unknown) => call(base, method, route, { cookie, body });
    const createNode = async (label: string) => {
      const created = await send('POST', '/nodes', { template_id: 'system_template_concept', label });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return (created.body as { id: string }).id;
    };
    const hasVector = async (id: string) =>
      Boolean(((await send('GET', `/nodes/${id}`)).body as { embedding: number[] | null }).embedding?.length);

    const before = await createNode('Harbour lantern of Quessant');
    await until(() => hasVector(before), { timeoutMs: 60_000, intervalMs: 200, what: 'the first node embedded' });

    await stores.pop()!.stop();
    const created: string[] = [];
    for (const label of ['Tidewater mill', 'Saltmarsh ferry', 'Copper bell foundry', 'Lighthouse of Brannoc'])
      created.push(await createNode(label));
    const logged = await until(
      () => {
        const lines = errorLines(dataDir).filter((line) => line.includes('system_trigger_auto_embed_create_v1'));
        return created.every((id) => lines.some((line) => line.includes(id))) && lines;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'an error line for every node whose workflow was not queued' },
    );
    expect(logged[0]).toMatch(
      /trigger system_trigger_auto_embed_create_v1 did not start workflow system_workflow_generate_embeddings_v1 for node\.create of node \S+ in 'default'/,
    );

    stores.push(await startRedis(redisPort));
    await until(async () => (await Promise.all(created.map(hasVector))).every(Boolean), {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: 'every node created during the outage to have its vector',
    });
    const events = (await send('GET', '/system/processing/events?event_type=recovery')).body as {
      action: string;
      source: string;
      database_name: string;
      details: { embedded: number };
    }[];
    const sweeps = events.filter((event) => event.action === 'embed_nodes_without_vector');
    expect(sweeps.every((event) => event.source === 'reconciler' && event.database_name === 'default')).toBe(true);
    // At least the outage's nodes: on a busy machine the first node may outlast the short interval too.
    expect(sweeps.reduce((sum, event) => sum + event.details.embedded, 0)).toBeGreaterThanOrEqual(created.length);
  }, 300_000);
});
