import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { waitForTask } from '../support/wait.ts';

interface Restored {
  restored_from: string;
  vector_task_id: string;
}

describe('concurrent backup restores', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const createNode = async (label: string) => {
    const result = await call('POST', '/nodes', {
      template_id: 'system_template_item',
      label,
      properties: { definition: `about ${label}` },
    });
    expect(result.status, result.text).toBe(201);
  };
  const nodeCount = async () => {
    const result = await call('GET', '/nodes?page_size=1');
    return (result.body as { pagination: { total: number } }).pagination.total;
  };
  const indexedNodes = () =>
    (
      JSON.parse(
        fs.readFileSync(path.join(server.dataDir, 'databases', 'default', 'vectors', 'nodes.meta.json'), 'utf8'),
      ) as { count: number }
    ).count;
  const backUp = async () => {
    const created = await call('POST', '/backup');
    expect(created.status, created.text).toBe(201);
    return (created.body as { filename: string }).filename;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('rebuilds the vector index once per restore, every rebuild succeeding, and the index matches the database', async () => {
    await createNode('Ada Lovelace');
    await createNode('Analytical Engine');
    expect((await call('POST', '/search/embeddings')).status).toBe(200);
    const small = await backUp();
    for (const label of ['Charles Babbage', 'Difference Engine', 'Jacquard loom']) await createNode(label);
    expect((await call('POST', '/search/embeddings')).status).toBe(200);
    const large = await backUp();

    // Alternating, so that each restore changes the rows the index describes; the last one restores `large`.
    const order = [small, large, small, large, small, large];
    const answers = await Promise.all(order.map((filename) => call('POST', `/backup/${filename}/restore`)));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);

    const tasks = await Promise.all(
      answers.map((answer) => waitForTask(call, (answer.body as Restored).vector_task_id, { timeoutMs: 60_000 })),
    );
    expect(tasks.map((task) => [task.status, task.error])).toEqual(order.map(() => ['completed', null]));
    expect(await nodeCount()).toBe(5);
    expect(indexedNodes()).toBe(5);
    const hits = await call('GET', '/search?q=Charles%20Babbage&search_type=semantic&limit=5');
    expect(hits.status, hits.text).toBe(200);
    expect(hits.body).toMatchObject({ type: 'semantic', fallback: null });
    const labels = (hits.body as { data: { node: { label: string } | null }[] }).data.map((hit) => hit.node?.label);
    expect(labels).toContain('Charles Babbage');
  }, 120_000);
});
