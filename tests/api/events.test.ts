import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEventBody } from '@rhizome/contracts/api/events';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { readEventStream } from '@rhizome/client/sse';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';
import { until, untilHolds } from '../support/wait.ts';

/** GET /events: the live feed of source and task changes the web interface follows. */
describe('change events', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  /** Follows the stream in the background; `stop()` disconnects like a closed tab. */
  async function follow(query = '') {
    const abort = new AbortController();
    const response = await fetch(`${server.base}/events${query}`, { headers: { cookie }, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: ChangeEventBody[] = [];
    const reading = readEventStream(
      response.body!,
      (data) => events.push(JSON.parse(data) as ChangeEventBody),
      abort.signal,
    ).catch(() => undefined);
    return {
      events,
      stop: async () => {
        abort.abort();
        await reading;
      },
    };
  }

  it('streams every step of a source from upload to deletion, and the task changes behind it', async () => {
    const stream = await follow();
    await until(() => stream.events[0]?.type === 'ready', { what: 'the ready event' });
    const upload = await uploadSources(
      server,
      cookie,
      '/sources',
      [
        {
          name: 'tides.md',
          content: '# Tides\n\nThe tide mill at Woodbridge turned its wheel with the ebb for eight centuries.',
        },
      ],
      { extract_entities: 'false', auto_confirm: 'true' },
    );
    expect(upload.status, upload.text).toBe(202);
    const id = (upload.body as SourceResponseBody).id;
    const statuses = () =>
      stream.events.flatMap((event) =>
        event.type === 'source' && event.source.id === id ? [event.source.status] : [],
      );
    await untilHolds(statuses, (seen) => seen.includes('indexed'), { timeoutMs: 15_000, what: 'the source indexed' });
    expect(stream.events.some((event) => event.type === 'task')).toBe(true);
    expect(stream.events.some((event) => event.type === 'lanes')).toBe(true);

    expect((await server.call('DELETE', `/sources/${id}`, { cookie })).status).toBe(204);
    await until(() => stream.events.some((event) => event.type === 'source_deleted' && event.source_id === id), {
      what: 'the source_deleted event',
    });
    await stream.stop();
  });

  it('sends only the topics asked for', async () => {
    const stream = await follow('?topics=tasks');
    await until(() => stream.events.some((event) => event.type === 'lanes'), { what: 'a lanes event' });
    await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'weirs.md', content: 'Weirs hold back river water so that a mill race keeps a steady head.' }],
      { extract_entities: 'false', auto_confirm: 'true' },
    );
    await until(() => stream.events.some((event) => event.type === 'task'), {
      timeoutMs: 15_000,
      what: 'a task event',
    });
    expect(stream.events.filter((event) => event.type === 'source')).toEqual([]);
    await stream.stop();
  });

  it('refuses an unknown topic with 422 and an anonymous caller with 401, and is documented', async () => {
    const bad = await server.call('GET', '/events?topics=sources,gossip', { cookie });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      error: 'VALIDATION_FAILED',
      details: { errors: [expect.objectContaining({ loc: ['query', 'topics'] })] },
    });
    expect((await server.call('GET', '/events')).status).toBe(401);
    const document = (await server.call('GET', '/openapi.json', { cookie })).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.paths['/events']).toHaveProperty('get');
  });
});
