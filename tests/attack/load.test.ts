import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

/**
 * Many clients at once against a real server: reads of every kind and writes interleaved, with a
 * cookie and with an API key. No request may fail, time out or get an error status, and the server
 * must answer normally afterwards. (How fast it is under load is the benchmarks' business.)
 */

const connections = 64;
const seconds = 8;

describe('load', () => {
  let server: TestServer;
  let cookie: string;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'load' } })).body as { key: string }).key;
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'harbour.txt', content: 'The harbour wall was rebuilt in 1952 after a winter storm. '.repeat(40) }],
      { extract_entities: 'false' },
    );
    await waitForSource(server, cookie, (accepted.body as { id: string }).id, ['indexed'], 120_000);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it(`answers ${connections} concurrent clients for ${seconds} s without one error`, async () => {
    const reads = ['/sources', '/nodes?page_size=20', '/search?q=harbour', '/system/dashboard', '/health', '/chats'];
    let written = 0;
    const result = await autocannon({
      url: server.base,
      connections,
      duration: seconds,
      timeout: 20,
      requests: [
        {
          setupRequest: (request) => {
            const index = Math.floor(Math.random() * (reads.length + 1));
            const useKey = Math.random() < 0.5;
            const headers = useKey ? { authorization: `Bearer ${key}` } : { cookie };
            if (index === reads.length) {
              written += 1;
              return {
                ...request,
                method: 'POST',
                path: `${new URL(server.base).pathname}/nodes`,
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify({ template_id: 'system_template_person', label: `Loaded person ${written}` }),
              };
            }
            return { ...request, method: 'GET', path: `${new URL(server.base).pathname}${reads[index]}`, headers };
          },
        },
      ],
    });
    const trials = result.requests.total;
    const failures = result.errors + result.timeouts + result.non2xx;
    console.log(
      `attack load: ${connections} clients × ${seconds} s: ${trials} requests, ${failures} failures, p99 ${result.latency.p99} ms`,
    );
    expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({
      errors: 0,
      timeouts: 0,
      non2xx: 0,
    });
    expect(trials).toBeGreaterThan(connections * 2);
    expect((await server.call('GET', '/health', { cookie })).status).toBe(200);
    const nodes = (await server.call('GET', '/nodes?page_size=1', { cookie })).body as {
      pagination: { total: number };
    };
    expect(nodes.pagination.total).toBeGreaterThan(0);
  }, 120_000);
});
