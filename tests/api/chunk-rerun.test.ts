import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { AttemptDetailBody, AttemptSummaryBody, RerunResultBody } from '@rhizome/contracts/api/extraction';
import type { FakeProviderControls } from '../support/fakes/controls.ts';
import type { FakeOllama } from '../support/fakes/ollama.ts';
import { startFakeOpenAi } from '../support/fakes/openai.ts';
import type { TestServer } from '../support/server.ts';
import { waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';
import { chunkScript, committedTwoGroupSource } from './chunk-history-fixture.ts';

interface CitationRow {
  id: string;
  entity_uri: string;
  chunk_id: string;
  context_snippet: string;
}

describe('re-running one chunk of a committed source', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  let openai: FakeProviderControls;
  let sourceId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;
  /** The source's nodes (label by id) and its entity citations with the chunk they cite. */
  const contribution = async () => {
    const database = await db();
    const nodes = (await database('graph_nodes as n')
      .join('node_sources as s', 's.node_id', 'n.id')
      .where('s.source_id', sourceId)
      .orderBy('n.id')
      .select('n.id', 'n.label')) as { id: string; label: string }[];
    const citations = (await database('source_citations as c')
      .join('document_chunks as d', 'd.id', 'c.chunk_id')
      .where('c.source_id', sourceId)
      .orderBy('c.id')
      .select('c.id', 'c.entity_uri', 'c.chunk_id', 'c.context_snippet', 'd.chunk_index')) as (CitationRow & {
      chunk_index: number;
    })[];
    return { nodes, citations };
  };

  beforeAll(async () => {
    ({ server, cookie, ollama, sourceId } = await committedTwoGroupSource());
    openai = await startFakeOpenAi();
  }, 90_000);

  afterAll(async () => {
    await server.stop();
    await ollama.close();
    await openai?.close();
  });

  it("replaces only that chunk's entities and citations at commit, with the model asked for", async () => {
    const before = await contribution();
    expect(before.nodes.map((node) => node.label).sort()).toEqual([
      'Copenhagen',
      'Marie Curie',
      'Niels Bohr',
      'Warsaw',
    ]);
    const requestsBefore = ollama.requests.length;

    ollama.scriptChat(...chunkScript.secondAgain);
    const queued = await call('POST', `/sources/${sourceId}/chunks/1/rerun`, { model: 'qwen3:14b' });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({
      source_id: sourceId,
      source_status: 'extracting',
      reruns: [{ chunk_index: 1, attempt_number: 2, queue_task_id: expect.any(String) }],
    } satisfies Partial<RerunResultBody>);
    const source = await waitForSource(server, cookie, sourceId, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');

    const chats = ollama.requests.slice(requestsBefore).filter((request) => request.path === '/api/chat');
    expect(chats.map((request) => (request.body as { model: string }).model)).toEqual(['qwen3:14b', 'qwen3:14b']);

    const after = await contribution();
    expect(after.nodes.map((node) => node.label).sort()).toEqual([
      'Marie Curie',
      'Niels Bohr',
      'University of Copenhagen',
      'Warsaw',
    ]);
    // The first chunk's nodes and citations are exactly as they were; the second's changed.
    const ofChunk = (state: typeof before, index: number) => state.citations.filter((row) => row.chunk_index === index);
    expect(ofChunk(after, 0)).toEqual(ofChunk(before, 0));
    const kept = (state: typeof before) => state.nodes.filter((node) => ['Marie Curie', 'Warsaw'].includes(node.label));
    expect(kept(after)).toEqual(kept(before));
    expect(ofChunk(after, 1)).not.toEqual(ofChunk(before, 1));
    const labels = new Map(after.nodes.map((node) => [node.id, node.label]));
    expect(
      ofChunk(after, 1)
        .map((row) => labels.get(row.entity_uri))
        .sort(),
    ).toEqual(['Niels Bohr', 'University of Copenhagen']);

    const attempts = (await call('GET', `/sources/${sourceId}/chunks/1/attempts`)).body as {
      data: AttemptSummaryBody[];
    };
    expect(attempts.data.map((attempt) => [attempt.attempt_number, attempt.model])).toEqual([
      [2, 'qwen3:14b'],
      [1, 'qwen3:8b'],
    ]);
    expect(
      ((await call('GET', `/sources/${sourceId}/chunks/0/attempts`)).body as { data: unknown[] }).data,
    ).toHaveLength(1);
  });

  it('re-runs a selection of chunks and refuses one already running', async () => {
    ollama.setDelay(400);
    ollama.scriptChat(...chunkScript.first, ...chunkScript.secondAgain);
    const queued = await call('POST', `/sources/${sourceId}/chunks/rerun`, { chunk_indexes: [1, 0] });
    expect(queued.status, queued.text).toBe(202);
    expect((queued.body as RerunResultBody).reruns.map((rerun) => rerun.chunk_index)).toEqual([0, 1]);
    const again = await call('POST', `/sources/${sourceId}/chunks/0/rerun`, {});
    expect(again.status).toBe(409);
    ollama.setDelay(0);
    await until(
      async () => {
        const source = (await call('GET', `/sources/${sourceId}`)).body as SourceResponseBody;
        return source.status === 'committed' ? source : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the source committed again' },
    );
    const labels = (await contribution()).nodes.map((node) => node.label).sort();
    expect(labels).toEqual(['Marie Curie', 'Niels Bohr', 'University of Copenhagen', 'Warsaw']);
  });
  it('re-runs a chunk with another provider, refusing an unknown or unusable one, and records who answered', async () => {
    const unknown = await call('POST', `/sources/${sourceId}/chunks/0/rerun`, { provider: 'mistral' });
    expect(unknown.status, unknown.text).toBe(422);
    const keyless = await call('POST', `/sources/${sourceId}/chunks/0/rerun`, { provider: 'openai' });
    expect(keyless.status, keyless.text).toBe(400);
    expect(keyless.body).toMatchObject({ message: expect.stringContaining('no API key is set for openai') });

    const configured = await call('PATCH', '/settings', {
      llm: { openai_api_key: 'sk-fake', openai_base_url: openai.url, openai_chat_model: 'gpt-4.1' },
    });
    expect(configured.status, configured.text).toBe(200);
    const localCalls = ollama.requests.filter((request) => request.path === '/api/chat').length;
    const queued = await call('POST', `/sources/${sourceId}/chunks/0/rerun`, { provider: 'openai' });
    expect(queued.status, queued.text).toBe(202);
    const source = await waitForSource(server, cookie, sourceId, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');

    // The other provider answered; the configured local server was not asked.
    const completions = openai.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(completions.length).toBeGreaterThan(0);
    expect(completions.map((request) => (request.body as { model: string }).model)).toContain('gpt-4.1');
    expect(ollama.requests.filter((request) => request.path === '/api/chat')).toHaveLength(localCalls);

    const attempts = (await call('GET', `/sources/${sourceId}/chunks/0/attempts`)).body as {
      data: AttemptSummaryBody[];
    };
    const [latest] = attempts.data;
    expect([latest.provider, latest.model]).toEqual(['openai', 'gpt-4.1']);
    const detail = (await call('GET', `/sources/${sourceId}/chunks/0/attempts/${latest.id}`)).body as AttemptDetailBody;
    // The fake OpenAI echoes the prompt: its answer, not the local server's script, is what was recorded.
    expect(detail.calls[0].raw_output).toMatch(/^echo: /);
    expect(detail.calls[0].model).toBe('gpt-4.1');
    expect(attempts.data.slice(1).every((attempt) => attempt.provider === 'localllm')).toBe(true);
  });
});
