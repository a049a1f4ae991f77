import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const document = [
  'Marie Curie was born in Warsaw in 1867.',
  'Marie Curie married Pierre Curie in 1895.',
  'Marie Curie received the Nobel Prize in Physics in 1903.',
  'Marie Curie worked at the University of Paris for most of her life.',
].join(' ');

const description = (text: string) =>
  `${text} ${'She is remembered in many biographies, museums and school books around the world.'}`;

/** Pass 1: five entities, a property, one malformed line. */
const entityAnswer = [
  `E|Marie Curie|Person|Curie; Madame Curie|0.95|S1, S2|${description('Polish-born physicist and chemist who pioneered the study of radioactivity.')}`,
  'P|0|birth_year|1867',
  `E|Warsaw|Place|Warszawa|0.9|S1|${description('Capital city of Poland where Marie Curie was born.')}`,
  'this line is not a record at all',
  `E|Pierre Curie|Person||0.9|S2|${description('French physicist who married Marie Curie and shared her research.')}`,
  `E|Nobel Prize in Physics|Award||0.9|S3|${description('The prize for physics awarded each year by the Royal Swedish Academy.')}`,
  `E|University of Paris|Organization|Sorbonne|0.9|S4|${description('The university in Paris where Marie Curie taught and did her research.')}`,
].join('\n');

/** Pass 2: the birth place written backwards (direction correction), a symmetric type, two types with inverses. */
const relationshipAnswer = [
  'R|1|0|born_in|0.9|S1|The first sentence states that Marie Curie was born in the city of Warsaw.',
  'R|0|2|married_to|0.9|S2|The second sentence states that Marie Curie married Pierre Curie in 1895.',
  'R|0|3|received_award|0.9|S3|The third sentence says Marie Curie received the Nobel Prize in Physics.',
  'R|0|4|works_at|0.85|S4|The fourth sentence says she worked at the University of Paris for years.',
].join('\n');

interface Edge {
  id: string;
  label: string;
  source_node_id: string;
  target_node_id: string;
  properties: string;
}

describe('extraction through a local model server (fake Ollama)', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;
  const upload = async (name: string, content: string, fields: Record<string, string>) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      domain: 'biographical',
      ...fields,
    });
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    ollama = await startFakeOllama({ models: ['qwen3:8b'] });
    const configured = await call('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: 'qwen3:8b',
        localllm_extraction_model: 'qwen3:8b',
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
    });
    expect(configured.status, configured.text).toBe(200);
  });

  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  it('commits the scripted graph: typed nodes, corrected direction, inverse but no symmetric mirror, cited sentences', async () => {
    ollama.scriptChat(entityAnswer, relationshipAnswer);
    const id = await upload('curie.txt', document, { auto_confirm: 'true' });
    const source = await waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    // Two extraction passes, plus the embedding calls of indexing and deduplication.
    expect(ollama.requests.filter((request) => request.path === '/api/chat')).toHaveLength(2);
    expect(source.llm_total_calls).toBeGreaterThanOrEqual(2);

    const database = await db();
    const nodes = (await database('graph_nodes as n')
      .join('graph_templates as t', 't.id', 'n.template_id')
      .where('n.extracted', true)
      .select('n.id', 'n.label', 'n.properties', 't.name as type')) as {
      id: string;
      label: string;
      properties: string;
      type: string;
    }[];
    expect(nodes.map((node) => [node.label, node.type]).sort()).toEqual([
      ['Marie Curie', 'Person'],
      ['Nobel Prize in Physics', 'Award'],
      ['Pierre Curie', 'Person'],
      ['University of Paris', 'Organization'],
      ['Warsaw', 'Place'],
    ]);
    const id0 = (label: string) => nodes.find((node) => node.label === label)!.id;
    const marie = JSON.parse(nodes.find((node) => node.label === 'Marie Curie')!.properties) as Record<string, unknown>;
    expect(marie).toMatchObject({
      birth_year: '1867',
      aliases: expect.arrayContaining(['Madame Curie']),
      extraction_domain: 'biographical',
    });

    const edges = (await database('graph_edges').where({ extracted: true }).select()) as Edge[];
    const triple = (edge: Edge) =>
      `${nodes.find((node) => node.id === edge.source_node_id)!.label} ${edge.label} ${nodes.find((node) => node.id === edge.target_node_id)!.label}`;
    expect(edges.map(triple).sort()).toEqual([
      'Marie Curie born_in Warsaw',
      'Marie Curie married_to Pierre Curie',
      'Marie Curie received_award Nobel Prize in Physics',
      'Marie Curie works_at University of Paris',
      'Nobel Prize in Physics awarded_to Marie Curie',
      'University of Paris employs Marie Curie',
    ]);
    const bornIn = edges.find((edge) => edge.label === 'born_in')!;
    expect(JSON.parse(bornIn.properties)).toMatchObject({ direction_corrected: true });
    expect(JSON.parse(edges.find((edge) => edge.label === 'awarded_to')!.properties)).toMatchObject({
      inverse_of: 'received_award',
    });

    const citations = (
      (await call('GET', `/nodes/${id0('Warsaw')}/citations`)).body as {
        data: { context_snippet: string; source: { id: string }; extraction_method: string }[];
      }
    ).data;
    expect(citations).toEqual([
      expect.objectContaining({
        context_snippet: 'Marie Curie was born in Warsaw in 1867.',
        source: expect.objectContaining({ id }),
        extraction_method: 'llm',
      }),
    ]);
    // Templates are shared per type: the source is linked to the ones its graph uses.
    const templates = (await database('graph_templates as t')
      .join('template_sources as ts', 'ts.template_id', 't.id')
      .where('ts.source_id', id)
      .orderBy('t.name')
      .select('t.name', 't.template_type')) as { name: string; template_type: string }[];
    expect(templates.filter((template) => template.template_type === 'node').map((template) => template.name)).toEqual([
      'Award',
      'Organization',
      'Person',
      'Place',
    ]);

    const progress = (await call('GET', `/sources/${id}/extraction`)).body as {
      stats: { harvest: Record<string, number> };
    };
    expect(progress.stats.harvest.linesRejected).toBeGreaterThanOrEqual(1);
    const prompts = ollama.requests
      .filter((request) => request.path === '/api/chat')
      .map((request) => JSON.stringify(request.body));
    expect(prompts[0]).toContain('S1');
    expect(prompts[0]).toContain('Person');
    expect(prompts[1]).toContain('received_award');
  });

  it('refuses a second run while one is in progress (409), cancels back to indexed, and a re-run completes', async () => {
    const paragraphs = Array.from({ length: 24 }, (_, index) => `Paragraph ${index}: ${document}`).join('\n\n');
    // The first answer streams slowly, so the job is still running when it is cancelled.
    ollama.scriptChat({ deltas: Array.from({ length: 40 }, () => 'x'), intervalMs: 100 });
    const id = await upload('long.txt', paragraphs, { auto_confirm: 'true' });
    await waitForSource(server, cookie, id, ['extracting']);
    const conflict = await call('POST', `/sources/${id}/extraction`, {});
    expect(conflict.status).toBe(409);

    const progress = (await call('GET', `/sources/${id}/extraction`)).body as { total_chunks: number; job_id: string };
    expect(progress.total_chunks).toBeGreaterThan(1);
    expect((await call('DELETE', `/sources/${id}/extraction`)).status).toBe(204);
    const cancelled = (await call('GET', `/sources/${id}`)).body as SourceResponseBody;
    expect(cancelled.status).toBe('indexed');
    const after = (await call('GET', `/sources/${id}/extraction`)).body as {
      status: string;
      chunks_by_status: Record<string, number>;
    };
    expect(after.status).toBe('cancelled');
    expect(after.chunks_by_status.cancelled).toBeGreaterThan(0);

    const rerun = await call('POST', `/sources/${id}/extraction`, { analysis_depth: 'quick' });
    expect(rerun.status, rerun.text).toBe(202);
    expect((rerun.body as { job_id: string }).job_id).not.toBe(progress.job_id);
    const done = await waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
    expect(done.status, done.error_message ?? '').toBe('committed');
  });
});
