import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const curie = [
  'Marie Curie was a physicist and chemist who was born in Warsaw in 1867.',
  'Marie Curie married Pierre Curie in Paris in 1895.',
  'Marie Curie worked at the University of Paris, where she taught physics for many years.',
  'In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel.',
].join(' ');

const becquerel = [
  'Henri Becquerel was a French physicist who discovered radioactivity in 1896.',
  'Henri Becquerel worked in Paris at the Museum of Natural History.',
  'Henri Becquerel shared the Nobel Prize in Physics with Marie Curie and Pierre Curie in 1903.',
].join(' ');

interface NodeRow {
  id: string;
  label: string;
  template_id: string;
  properties: string;
  extracted: number;
}
interface Citation {
  id: string;
  source: { id: string };
  chunk: { id: string; content: string };
  context_snippet: string | null;
  confidence: number;
  extraction_method: string;
}

describe('extraction through the builtin provider', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;
  const uploadText = async (name: string, content: string, fields: Record<string, string> = {}) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      auto_confirm: 'true',
      domain: 'biographical',
      ...fields,
    });
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };
  const committed = (id: string) => waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
  const nodeNamed = async (label: string) =>
    (await (await db())('graph_nodes').whereRaw('lower(label) = ?', [label.toLowerCase()]).select()) as NodeRow[];
  const citationsOf = async (nodeId: string) =>
    ((await call('GET', `/nodes/${nodeId}/citations`)).body as { data: Citation[] }).data;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('takes an auto-confirmed upload to a committed, cited graph and reports every step', async () => {
    const id = await uploadText('curie.txt', curie);
    const source = await committed(id);
    expect(source.status, source.error_message ?? '').toBe('committed');
    expect(source).toMatchObject({ progress: 'ready', extraction_domain: 'biographical' });
    expect(source.extraction_entities_count).toBeGreaterThanOrEqual(3);
    expect(source.extraction_relationships_count).toBeGreaterThanOrEqual(1);
    expect(source.extraction_started_at).toBeTruthy();
    expect(source.commit_completed_at).toBeTruthy();
    expect(source.llm_total_calls).toBeGreaterThanOrEqual(2);
    expect(source.estimated_tokens).toBeGreaterThan(0);
    expect(source.estimated_cost_usd).toBe(0);
    expect(source.extraction_job_id).toMatch(/^job_/);

    const [marie] = await nodeNamed('Marie Curie');
    expect(marie).toBeDefined();
    expect(marie.extracted).toBe(1);
    // One template per type, shared by every source: extracted people are typed by the system Person template.
    expect(marie.template_id).toBe('system_template_person');
    // Committed nodes are embedded (the builtin embedder: 356 dimensions, word vectors and the corpus part).
    expect(((await call('GET', `/nodes/${marie.id}`)).body as { embedding: number[] | null }).embedding).toHaveLength(
      356,
    );
    const citations = await citationsOf(marie.id);
    expect(citations.length).toBeGreaterThan(0);
    expect(citations[0]).toMatchObject({ source: { id }, extraction_method: 'builtin' });
    expect(citations[0].context_snippet).toContain('Marie Curie');
    expect(citations[0].chunk.content).toContain(citations[0].context_snippet!.split(' … ')[0]);

    const edges = (await (
      await db()
    )('graph_edges')
      .where({ extracted: true })
      .select('id', 'label', 'source_node_id', 'target_node_id')) as { id: string; label: string }[];
    expect(edges.length).toBeGreaterThan(0);
    const relationshipCitations = (await (
      await db()
    )('relationship_citations')
      .where({ source_id: id })
      .count({ n: '*' })
      .first()) as { n: number };
    expect(Number(relationshipCitations.n)).toBeGreaterThan(0);

    const progress = (await call('GET', `/sources/${id}/extraction`)).body as Record<string, unknown>;
    expect(progress).toMatchObject({
      source_id: id,
      status: 'completed',
      has_extraction_job: true,
      completed_chunks: 1,
      failed_chunks: 0,
      progress_percent: 100,
      extraction_depth: 'full',
    });
    expect(progress.total_entities).toBe(source.extraction_entities_count);
    const tasks = (await call('GET', `/sources/${id}/extraction/tasks`)).body as {
      data: { status: string; attempts: number; entity_count: number }[];
    };
    expect(tasks.data).toEqual([
      expect.objectContaining({ status: 'completed', attempts: 1, entity_count: expect.any(Number) }),
    ]);

    const searchable = (await (await db()).raw("SELECT node_id FROM fts_nodes WHERE fts_nodes MATCH 'Warsaw'")) as {
      node_id: string;
    }[];
    expect(searchable.length).toBeGreaterThan(0);
  });

  it('merges the same person from two sources into one node cited by both, and deleting one source keeps the shared node', async () => {
    const first = (await (await db())('sources').where({ filename: 'curie.txt' }).first('id')) as { id: string };
    const second = await uploadText('becquerel.txt', becquerel);
    expect((await committed(second)).status).toBe('committed');

    const henri = await nodeNamed('Henri Becquerel');
    expect(henri).toHaveLength(1);
    const sources = new Set((await citationsOf(henri[0].id)).map((citation) => citation.source.id));
    expect(sources).toEqual(new Set([first.id, second]));

    expect((await call('DELETE', `/sources/${second}`)).status).toBe(204);
    const after = await nodeNamed('Henri Becquerel');
    expect(after).toHaveLength(1);
    expect((await citationsOf(henri[0].id)).map((citation) => citation.source.id)).toEqual(
      expect.not.arrayContaining([second]),
    );
    const onlySecond = (await (
      await db()
    )('graph_nodes as n')
      .where('n.extracted', true)
      .whereNotExists((await db())('node_sources').whereRaw('node_sources.node_id = n.id'))
      .count({ n: '*' })
      .first()) as { n: number };
    expect(Number(onlySecond.n)).toBe(0);
    expect(await (await db())('relationship_citations').where({ source_id: second }).first()).toBeUndefined();
    expect(await (await db())('graph_templates').where({ source_id: second }).first()).toBeUndefined();
  });

  it('commits a later extraction of an entity made by hand onto that node, which deleting the source keeps', async () => {
    const made = await call('POST', '/nodes', {
      template_id: 'system_template_person',
      label: 'Guido van Rossum',
      properties: { description: 'Made by hand.' },
    });
    expect(made.status, made.text).toBe(201);
    const guido = (made.body as { id: string }).id;
    // A node stored before every node kept a name key is found all the same.
    const google = await call('POST', '/nodes', { template_id: 'system_template_organization', label: 'Google' });
    expect(google.status, google.text).toBe(201);
    const googleId = (google.body as { id: string }).id;
    await (await db())('graph_nodes').where({ id: googleId }).update({ name_key: null });
    // Typed by hand as a Location while extraction types places with the database's Place template: one kind of thing.
    const place = await call('POST', '/templates', { name: 'Place', template_type: 'node', properties: [] });
    expect(place.status, place.text).toBe(201);
    const haarlem = await call('POST', '/nodes', { template_id: 'system_template_location', label: 'Haarlem' });
    expect(haarlem.status, haarlem.text).toBe(201);
    const text = [
      'Guido van Rossum was a Dutch programmer who was born in Haarlem in 1956.',
      'Guido van Rossum created the Python language in Amsterdam in 1991.',
      'Guido van Rossum worked at Google in California from 2005.',
    ].join(' ');
    const id = await uploadText('guido.txt', text);
    expect((await committed(id)).status).toBe('committed');

    const named = await nodeNamed('Guido van Rossum');
    expect(named.map((node) => node.id)).toEqual([guido]);
    expect(named[0]).toMatchObject({ template_id: 'system_template_person', extracted: 0 });
    expect(JSON.parse(named[0].properties)).toMatchObject({ description: expect.stringContaining('Made by hand.') });
    expect((await citationsOf(guido)).map((citation) => citation.source.id)).toEqual([id]);
    const linked = await (await db())('node_sources').where({ node_id: guido, source_id: id }).first();
    expect(linked).toBeDefined();
    expect((await nodeNamed('Google')).map((node) => node.id)).toEqual([googleId]);
    expect((await nodeNamed('Haarlem')).map((node) => node.id)).toEqual([(haarlem.body as { id: string }).id]);

    expect((await call('DELETE', `/sources/${id}`)).status).toBe(204);
    expect((await call('GET', `/nodes/${guido}`)).status).toBe(200);
    expect(await citationsOf(guido)).toEqual([]);
  });

  it('refuses extraction outside indexed/extracted (400), for a missing source (404), and over the token budget', async () => {
    const parked = await uploadSources(server, cookie, '/sources', [
      { name: 'parked.txt', content: `${curie} (parked)` },
    ]);
    const parkedId = (parked.body as SourceResponseBody).id;
    await waitForSource(server, cookie, parkedId, ['awaiting_confirmation']);
    const refused = await call('POST', `/sources/${parkedId}/extraction`, {});
    expect(refused.status).toBe(400);
    expect((await call('POST', '/sources/src_missing/extraction', {})).status).toBe(404);
    expect((await call('DELETE', `/sources/${parkedId}/extraction`)).status).toBe(404);
    expect((await call('GET', `/sources/${parkedId}/extraction`)).body).toMatchObject({ has_extraction_job: false });

    expect((await call('PATCH', '/settings', { llm: { max_tokens_per_source: 10 } })).status).toBe(200);
    try {
      const confirmed = await call('POST', `/sources/${parkedId}/confirmation`, {});
      expect(confirmed.status).toBe(200);
      const errored = await waitForSource(server, cookie, parkedId, ['error']);
      expect(errored).toMatchObject({ error_stage: 'extraction' });
      expect(errored.error_message).toContain('llm.max_tokens_per_source');
    } finally {
      await call('PATCH', '/settings', { llm: { max_tokens_per_source: null } });
    }
  });

  it('leaves a source indexed, without extraction, when uploaded with extract_entities=false; POST then extracts it', async () => {
    const id = await uploadText('later.txt', `${becquerel} Later.`, { extract_entities: 'false' });
    const indexed = await waitForSource(server, cookie, id, ['indexed']);
    expect(indexed.extract_entities).toBe(false);
    const started = await call('POST', `/sources/${id}/extraction`, { analysis_depth: 'quick' });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ source_id: id, status: 'queued', job_id: expect.stringMatching(/^job_/) });
    expect((await committed(id)).status).toBe('committed');
  });
});
