import { expect, it } from 'vitest';
import { readEvents } from './chats-sse.ts';
import { call, type CallOptions, type CallResult } from './server.ts';
import { until } from './wait.ts';

/**
 * A new operator's first session over plain HTTP: setup → upload → extraction → search → chat → export.
 * The embedded default and the stack behind nginx both run these same steps, so a route that answers
 * directly but not through the proxy cannot pass. Registers one `it` per step in the surrounding
 * `describe`; `base` (the `/api/v1` URL) is read when the steps run, after the server started. Later
 * tests of the same describe can use the account through `credentials`.
 */
export function journeySteps(base: () => string): { credentials: () => { cookie: string; key: string } } {
  const account = { username: 'operator', password: 'a long passphrase' };
  const document = [
    'Marie Curie was a physicist and chemist who was born in Warsaw in 1867.',
    'Marie Curie married Pierre Curie in Paris in 1895.',
    'In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel.',
  ].join(' ');
  let cookie = '';
  let key = '';
  let sourceId = '';
  const api = (method: string, route: string, options: CallOptions = {}): Promise<CallResult> =>
    call(base(), method, route, { key, ...options });
  const ok = async (method: string, route: string, status: number, options: CallOptions = {}): Promise<unknown> => {
    const result = await api(method, route, options);
    expect(result.status, `${method} ${route}: ${result.text.slice(0, 300)}`).toBe(status);
    return result.body;
  };
  const slowly = { timeoutMs: 60_000, intervalMs: 100 };

  it('journey: sets up the account, whose session creates an API key that authenticates', async () => {
    const setup = await call(base(), 'POST', '/auth/setup', { body: account });
    expect(setup.status, setup.text).toBe(201);
    cookie = setup.cookie!;
    const created = (await ok('POST', '/auth/keys', 201, { cookie, body: { name: 'journey' } })) as { key: string };
    key = created.key;
    expect(await ok('GET', '/auth/me', 200)).toEqual({ username: account.username });
  });

  it('journey: uploads a document and extracts it into a cited graph', async () => {
    const form = new FormData();
    form.append('auto_confirm', 'true');
    form.append('domain', 'biographical');
    form.append('file', new Blob([document]), 'curie.txt');
    const uploaded = await fetch(`${base()}/sources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(202);
    sourceId = ((await uploaded.json()) as { id: string }).id;

    const source = await until(
      async () => {
        const current = (await ok('GET', `/sources/${sourceId}`, 200)) as {
          status: string;
          error_message: string | null;
          extraction_entities_count: number;
        };
        return ['committed', 'error'].includes(current.status) ? current : undefined;
      },
      { ...slowly, what: 'the source to be committed' },
    );
    expect(source.status, source.error_message ?? '').toBe('committed');
    expect(source.extraction_entities_count).toBeGreaterThanOrEqual(3);
    expect(await ok('GET', `/sources/${sourceId}/extraction`, 200)).toMatchObject({
      status: 'completed',
      failed_chunks: 0,
    });
  });

  it('journey: finds the entity and the passage by keyword and hybrid search, the entity cited from the document', async () => {
    for (const searchType of ['keyword', 'hybrid']) {
      const found = (await ok('GET', `/search?q=curie+warsaw&search_type=${searchType}`, 200)) as {
        data: { node: { id: string; label: string } | null; chunk: { source_id: string } | null }[];
      };
      const marie = found.data.find((hit) => hit.node?.label === 'Marie Curie')?.node;
      expect(marie, searchType).toBeDefined();
      expect(
        found.data.some((hit) => hit.chunk?.source_id === sourceId),
        searchType,
      ).toBe(true);
      const citations = (
        (await ok('GET', `/nodes/${marie!.id}/citations`, 200)) as {
          data: { source: { id: string }; context_snippet: string | null }[];
        }
      ).data;
      expect(citations[0]).toMatchObject({
        source: { id: sourceId },
        context_snippet: expect.stringContaining('Marie Curie'),
      });
    }
  });

  it('journey: creates and lists a chat, and streams a cited answer as server-sent events', async () => {
    const chat = (await ok('POST', '/chats', 201, { body: { title: 'Curie' } })) as { id: string };
    const listed = (await ok('GET', '/chats', 200)) as { data: { id: string }[] };
    expect(listed.data.map((item) => item.id)).toContain(chat.id);

    await ok('POST', `/chats/${chat.id}/send`, 202, { body: { content: 'Where was Marie Curie born?' } });
    // Mid-answer the stream resumes with the next events, after it the answer comes as one `done`: both end in it.
    const read = await readEvents({ base: base() }, cookie, chat.id);
    expect(read.status).toBe(200);
    expect(read.contentType).toMatch(/^text\/event-stream/);
    expect(read.ended).toBe(true);
    const done = read.events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', status: 'completed', content: expect.stringContaining('Warsaw') });
    const citations = Object.values(done.chunk_citations as Record<string, { source_id: string }>);
    expect(citations.map((citation) => citation.source_id)).toContain(sourceId);

    const markdown = await api('GET', `/chats/${chat.id}/export?format=markdown`);
    expect(markdown.status, markdown.text).toBe(200);
    expect(markdown.text).toContain('Where was Marie Curie born?');
  });

  it('journey: exports the database as a .ccx package and downloads it', async () => {
    const { task_id: taskId } = (await ok('POST', '/exports', 202)) as { task_id: string };
    const task = await until(
      async () => {
        const current = (await ok('GET', `/queue/tasks/${taskId}`, 200)) as { status: string; error: unknown };
        return ['completed', 'failed', 'cancelled'].includes(current.status) ? current : undefined;
      },
      { ...slowly, what: 'the export task' },
    );
    expect(task.status, JSON.stringify(task.error)).toBe('completed');

    const download = await fetch(`${base()}/exports/${taskId}/download`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="knowledge_export_\d{8}_\d{6}\.ccx"$/,
    );
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('knowledge.jsonld'))).toBe(true);
  });

  return { credentials: () => ({ cookie, key }) };
}
