import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { validationIssuesOf } from '../support/api-assertions.ts';

const person = 'system_template_person';
const link = 'system_template_link';

interface Node {
  id: string;
  label: string;
  properties: Record<string, unknown>;
  edge_count: number;
  citation_count: number;
}

describe('POST /nodes/{node_id}/merge', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function node(label: string, properties: Record<string, unknown> = {}): Promise<string> {
    const result = await call('POST', '/nodes', { template_id: person, label, properties });
    expect(result.status, result.text).toBe(201);
    return (result.body as Node).id;
  }

  async function edge(source: string, target: string, label: string): Promise<string> {
    const result = await call('POST', '/edges', {
      template_id: link,
      source_node_id: source,
      target_node_id: target,
      label,
    });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  /** A committed source with one passage, cited for `nodeId` (and for `edgeId` when given). */
  async function cite(sourceId: string, nodeId: string, edgeId?: string): Promise<void> {
    const now = new Date().toISOString();
    await db('sources').insert({
      id: sourceId,
      title: `Source ${sourceId}`,
      filename: `${sourceId}.md`,
      source_type: 'text',
      status: 'committed',
      created_at: now,
      updated_at: now,
    });
    await db('document_chunks').insert({
      id: `${sourceId}_chunk`,
      source_id: sourceId,
      chunk_index: 0,
      content: `Passage naming ${nodeId}.`,
      created_at: now,
    });
    await db('source_citations').insert({
      id: `${sourceId}_cite`,
      entity_uri: nodeId,
      source_id: sourceId,
      chunk_id: `${sourceId}_chunk`,
      context_snippet: 'Passage',
      created_at: now,
    });
    await db('node_sources').insert({ node_id: nodeId, source_id: sourceId });
    if (edgeId) {
      await db('relationship_citations').insert({
        id: `${sourceId}_rcite`,
        edge_id: edgeId,
        source_id: sourceId,
        chunk_id: `${sourceId}_chunk`,
        created_at: now,
      });
      await db('edge_sources').insert({ edge_id: edgeId, source_id: sourceId });
    }
  }

  /** Every row a merge may touch, to prove a refused request wrote nothing. */
  async function graphState() {
    const tables = [
      'graph_nodes',
      'graph_edges',
      'source_citations',
      'relationship_citations',
      'node_sources',
      'edge_sources',
      'fts_nodes',
    ];
    return Object.fromEntries(
      await Promise.all(tables.map(async (table) => [table, await db(table).select('*').orderBy('rowid')])),
    );
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    db = (await server.platform.databases.current()).db;
  });
  afterAll(() => server.stop());

  it('moves edges and citations to the kept node, collapses duplicates, keeps aliases and properties, deletes the merged node', async () => {
    const kept = await node('Ada Lovelace', { aliases: ['Countess of Lovelace'], description: 'Mathematician' });
    const merged = await node('Augusta Ada King', { aliases: ['Ada King'], description: 'Writer', born: '1815' });
    const babbage = await node('Charles Babbage');
    const london = await node('London');
    const referrer = await node('Analytical Engine', { designer_ref: merged });
    const keptKnows = await edge(kept, babbage, 'knows');
    const mergedKnows = await edge(merged, babbage, 'knows');
    const livedIn = await edge(merged, london, 'lived_in');
    const incoming = await edge(babbage, merged, 'corresponded_with');
    const between = await edge(kept, merged, 'same_as');
    await cite('src_kept', kept);
    await cite('src_merged', merged, mergedKnows);

    const result = await call('POST', `/nodes/${kept}/merge`, { node_ids: [merged] });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({
      merged_node_ids: [merged],
      edges_moved: 2,
      edges_collapsed: 1,
      edges_removed: 1,
      citations_moved: 1,
    });
    const body = result.body as { node: Node };
    expect(body.node.id).toBe(kept);
    expect(body.node.label).toBe('Ada Lovelace');
    // The kept node's description wins; the merged one's extra property fills in; both names become aliases.
    expect(body.node.properties).toMatchObject({ description: 'Mathematician', born: '1815' });
    expect(body.node.properties.aliases).toEqual(['Countess of Lovelace', 'Augusta Ada King', 'Ada King']);

    expect((await call('GET', `/nodes/${merged}`)).status).toBe(404);
    const connections = (await call('GET', `/nodes/${kept}/connections?sort_by=relationship`)).body as {
      data: { id: string; relationship: string; direction: string }[];
    };
    expect(
      connections.data.map(({ id, relationship, direction }) => `${direction} ${relationship} ${id}`).sort(),
    ).toEqual(
      [`incoming corresponded_with ${babbage}`, `outgoing knows ${babbage}`, `outgoing lived_in ${london}`].sort(),
    );
    // The duplicate 'knows' collapsed into the kept node's own edge, with its citation and source.
    expect((await call('GET', `/edges/${mergedKnows}`)).status).toBe(404);
    expect((await call('GET', `/edges/${between}`)).status).toBe(404);
    expect((await call('GET', `/edges/${livedIn}`)).body).toMatchObject({
      source_node_id: kept,
      target_node_id: london,
    });
    expect((await call('GET', `/edges/${incoming}`)).body).toMatchObject({
      source_node_id: babbage,
      target_node_id: kept,
    });
    expect(await db('relationship_citations').where({ id: 'src_merged_rcite' }).first('edge_id')).toEqual({
      edge_id: keptKnows,
    });
    expect(
      (await db('edge_sources').where({ edge_id: keptKnows }).select('source_id')).map(
        (row: { source_id: string }) => row.source_id,
      ),
    ).toEqual(['src_merged']);

    const citations = (await call('GET', `/nodes/${kept}/citations`)).body as { data: { source: { id: string } }[] };
    expect(citations.data.map((citation) => citation.source.id).sort()).toEqual(['src_kept', 'src_merged']);
    const provenance = (await db('node_sources').where({ node_id: kept }).select('source_id'))
      .map((row: { source_id: string }) => row.source_id)
      .sort();
    expect(provenance).toEqual(['src_kept', 'src_merged']);
    expect((await call('GET', `/nodes?source_ids=src_merged&minimal=true`)).body).toMatchObject({
      data: [{ id: kept }],
    });

    // Degree counters, the search index and references follow.
    expect((await call('GET', `/nodes/${kept}`)).body).toMatchObject({ edge_count: 3, citation_count: 2 });
    expect(await db('graph_nodes').where({ id: kept }).first('degree')).toEqual({ degree: 3 });
    const search = (await call('GET', '/search?q=Augusta')).body as { data: { node: { id: string } | null }[] };
    expect(search.data.flatMap((hit) => (hit.node ? [hit.node.id] : []))).toEqual([kept]);
    expect(((await call('GET', `/nodes/${referrer}`)).body as Node).properties.designer_ref).toBe(kept);
  });

  it('cites each sentence of a passage once on the kept node when both nodes were cited by it', async () => {
    const first = 'Ada Lovelace wrote the notes.';
    const second = 'Augusta Ada King met Charles Babbage.';
    const kept = await node('Ada Lovelace');
    const merged = await node('Augusta Ada King');
    const babbage = await node('Babbage');
    const keptKnows = await edge(kept, babbage, 'knows');
    const mergedKnows = await edge(merged, babbage, 'knows');
    await cite('src_both', kept, keptKnows);
    const content = `${first} ${second}`;
    await db('document_chunks').where({ id: 'src_both_chunk' }).update({ content });
    const spans = [first, second].map((text) => ({
      start: content.indexOf(text),
      end: content.indexOf(text) + text.length,
    }));
    const metadata = (sentences: typeof spans) => JSON.stringify({ chunk_index: 0, sentences });
    await db('source_citations')
      .where({ id: 'src_both_cite' })
      .update({ context_snippet: first, citation_metadata: metadata([spans[0]]), confidence: 0.6 });
    const now = new Date().toISOString();
    await db('source_citations').insert({
      id: 'src_both_cite_merged',
      entity_uri: merged,
      source_id: 'src_both',
      chunk_id: 'src_both_chunk',
      context_snippet: `${first} … ${second}`,
      citation_metadata: metadata(spans),
      confidence: 0.9,
      created_at: now,
    });
    await db('relationship_citations').insert({
      id: 'src_both_rcite_merged',
      edge_id: mergedKnows,
      source_id: 'src_both',
      chunk_id: 'src_both_chunk',
      context_snippet: 'Passage',
      created_at: now,
    });
    await db('relationship_citations').where({ id: 'src_both_rcite' }).update({ context_snippet: 'Passage' });

    const result = await call('POST', `/nodes/${kept}/merge`, { node_ids: [merged] });
    expect(result.status, result.text).toBe(200);
    const citations = (await call('GET', `/nodes/${kept}/citations`)).body as {
      data: { id: string; context_snippet: string; confidence: number; citation_metadata: { sentences: unknown } }[];
    };
    expect(citations.data).toHaveLength(1);
    expect(citations.data[0]).toMatchObject({
      context_snippet: `${first} … ${second}`,
      confidence: 0.9,
      citation_metadata: { sentences: spans },
    });
    expect(await db('source_citations').where({ entity_uri: kept }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect((await call('GET', `/nodes/${kept}`)).body).toMatchObject({ citation_count: 1 });
    // The relationship that collapsed into the kept node's own cites its passage once too.
    expect(await db('relationship_citations').where({ edge_id: keptKnows }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('merges several nodes at once', async () => {
    const kept = await node('Paris');
    const first = await node('Paname');
    const second = await node('City of Light');
    const france = await node('France');
    await edge(first, france, 'capital_of');
    await edge(second, france, 'capital_of');
    const result = await call('POST', `/nodes/${kept}/merge`, { node_ids: [first, second] });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({
      edges_moved: 1,
      edges_collapsed: 1,
      node: { properties: { aliases: ['Paname', 'City of Light'] } },
    });
    expect((await call('GET', `/nodes/${kept}`)).body).toMatchObject({ edge_count: 1 });
  });

  it('answers 404 for an unknown kept or merged node and changes nothing', async () => {
    const kept = await node('Kept');
    const other = await node('Other');
    await edge(other, kept, 'knows');
    const before = await graphState();
    const unknownMerged = await call('POST', `/nodes/${kept}/merge`, { node_ids: [other, 'node_missing'] });
    expect(unknownMerged.status).toBe(404);
    expect(unknownMerged.body).toMatchObject({ error: 'NOT_FOUND' });
    expect((unknownMerged.body as { message: string }).message).toContain('node_missing');
    const unknownKept = await call('POST', '/nodes/node_missing/merge', { node_ids: [other] });
    expect(unknownKept.status).toBe(404);
    expect(await graphState()).toEqual(before);
  });

  it('answers 422 for merging a node into itself or a malformed body, and changes nothing', async () => {
    const kept = await node('Self');
    const other = await node('Twin');
    const before = await graphState();
    const itself = await call('POST', `/nodes/${kept}/merge`, { node_ids: [other, kept] });
    expect(itself.status).toBe(422);
    expect(validationIssuesOf(itself)).toEqual([
      expect.objectContaining({ loc: ['body', 'node_ids', 1], msg: 'A node cannot be merged into itself' }),
    ]);
    for (const body of [{}, { node_ids: [] }, { node_ids: [other, other] }, { node_ids: other }]) {
      const result = await call('POST', `/nodes/${kept}/merge`, body);
      expect(result.status, JSON.stringify(body)).toBe(422);
      expect(result.body).toMatchObject({ error: expect.stringMatching(/^VALIDATION_/), details: expect.any(Object) });
    }
    expect(await graphState()).toEqual(before);
  });

  it('is documented in the OpenAPI document', async () => {
    const document = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(document.paths['/nodes/{node_id}/merge']).toHaveProperty('post');
  });
});
