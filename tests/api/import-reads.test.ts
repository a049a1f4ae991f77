import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitMergeImport } from '../support/ccx-package.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { waitForTask } from '../support/wait.ts';

/**
 * A long import (the one a restart after kill -9 runs again) writes in one transaction. Requests must
 * keep being answered meanwhile: reads run beside it instead of queueing behind it.
 */

const paragraphs = Array.from(
  { length: 45_000 },
  (_, index) =>
    `Paragraph ${index} of the chronicle tells how the harbour of Quillonbrae traded salt, amber and timber with ${index % 97} distant ports across the northern sea.`,
).join('\n\n');

describe('reads while a large package is imported', () => {
  let server: TestServer;
  let cookie: string;
  let packageBytes: Uint8Array<ArrayBuffer>;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'chronicle.txt', content: paragraphs }], {
      extract_entities: 'false',
    });
    expect(accepted.status, accepted.text).toBe(202);
    await waitForSource(server, cookie, (accepted.body as { id: string }).id, ['indexed'], 240_000);
    const exported = await call('POST', '/exports?include_embeddings=true', {});
    const exportTask = (exported.body as { task_id: string }).task_id;
    await waitForTask(call, exportTask, { timeoutMs: 240_000 });
    const download = await fetch(`${server.base}/exports/${exportTask}/download`, { headers: { cookie } });
    packageBytes = new Uint8Array(await download.arrayBuffer());
    expect((await call('POST', '/databases', { name: 'target' })).status).toBe(201);
    expect((await call('PATCH', '/databases/current', { name: 'target' })).status).toBe(200);
  }, 360_000);

  afterAll(() => server?.stop());

  it('answers GET /sources promptly all through the import', async () => {
    const taskId = await submitMergeImport(server.base, cookie, packageBytes, 'chronicle.ccx');
    const started = Date.now();
    const latencies: number[] = [];
    let finished = false;
    const importDone = waitForTask(call, taskId, { timeoutMs: 300_000 }).finally(() => (finished = true));
    while (!finished) {
      const before = Date.now();
      const sources = await call('GET', '/sources');
      expect(sources.status, sources.text).toBe(200);
      latencies.push(Date.now() - before);
    }
    expect((await importDone).status).toBe('completed');
    const importMs = Date.now() - started;
    const slowest = Math.max(...latencies);
    console.log(`import took ${importMs} ms; ${latencies.length} reads meanwhile, the slowest ${slowest} ms`);
    // The comparison means something only when several reads ran while the import's transaction was open; a
    // read queued behind that transaction would take about as long as the import itself.
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(importMs).toBeGreaterThan(300);
    expect(slowest).toBeLessThan(importMs / 3);
  }, 360_000);
});
