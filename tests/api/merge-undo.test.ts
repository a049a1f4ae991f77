import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';

const person = 'system_template_person';
const link = 'system_template_link';

interface MergeRecord {
  merge_id: string;
  kept_node_id: string;
  kept_label: string;
  merged: { id: string; label: string }[];
  undoable: boolean;
  merged_at: string;
  expires_at: string;
}

describe('undoing a node merge', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function node(label: string, properties: Record<string, unknown> = {}, embedding?: number[]) {
    const result = await call('POST', '/nodes', { template_id: person, label, properties, embedding });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  async function edge(source: string, target: string, label: string, properties: Record<string, unknown> = {}) {
    const result = await call('POST', '/edges', {
      template_id: link,
      source_node_id: source,
      target_node_id: target,
      label,
      properties,
    });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  /** A source the nodes and edges were extracted from (their provenance links). */
  async function source(id: string, nodeIds: string[], edgeIds: string[]) {
    const now = new Date().toISOString();
    await db('sources').insert({
      id,
      title: id,
      filename: `${id}.md`,
      source_type: 'text',
      status: 'committed',
      created_at: now,
      updated_at: now,
    });
    for (const nodeId of nodeIds) await db('node_sources').insert({ node_id: nodeId, source_id: id });
    for (const edgeId of edgeIds) await db('edge_sources').insert({ edge_id: edgeId, source_id: id });
  }

  /** A passage of `sourceId` cited for a node or an edge. */
  async function cite(id: string, sourceId: string, target: { node: string } | { edge: string }, snippet: string) {
    const now = new Date().toISOString();
    const chunkId = `${sourceId}_chunk`;
    if (!(await db('document_chunks').where({ id: chunkId }).first()))
      await db('document_chunks').insert({
        id: chunkId,
        source_id: sourceId,
        chunk_index: 0,
        content: snippet,
        created_at: now,
      });
    const columns = {
      id,
      source_id: sourceId,
      chunk_id: chunkId,
      context_snippet: snippet,
      confidence: 0.7,
      created_at: now,
    };
    if ('node' in target) await db('source_citations').insert({ ...columns, entity_uri: target.node });
    else await db('relationship_citations').insert({ ...columns, edge_id: target.edge });
  }

  /** The citations of `nodeIds` and `sourceIds` as the API lists them. */
  async function citationsRead(nodeIds: string[], sourceIds: string[]) {
    const read = async (apiPath: string) => {
      const result = await call('GET', apiPath);
      expect(result.status, result.text).toBe(200);
      return result.body;
    };
    return {
      nodes: await Promise.all(nodeIds.map((id) => read(`/nodes/${id}/citations`))),
      sources: await Promise.all(sourceIds.map((id) => read(`/sources/${id}/citations`))),
    };
  }

  /** Every graph row a merge touches, in storage order, with the rowids that order them. */
  async function graphState() {
    const read = (sql: string) => db.raw(sql) as Promise<unknown[]>;
    return {
      graph_nodes: await read('SELECT rowid AS rowid_, * FROM graph_nodes ORDER BY rowid'),
      graph_edges: await read('SELECT rowid AS rowid_, * FROM graph_edges ORDER BY rowid'),
      node_sources: await read('SELECT rowid AS rowid_, * FROM node_sources ORDER BY rowid'),
      edge_sources: await read('SELECT rowid AS rowid_, * FROM edge_sources ORDER BY rowid'),
      node_embeddings: await read(
        'SELECT node_id, model, dimensions, hex(vector) AS vector FROM node_embeddings ORDER BY node_id',
      ),
      fts_nodes: await read('SELECT rowid AS rowid_, node_id, label, body FROM fts_nodes ORDER BY rowid'),
      source_citations: await read('SELECT rowid AS rowid_, * FROM source_citations ORDER BY rowid'),
      relationship_citations: await read('SELECT rowid AS rowid_, * FROM relationship_citations ORDER BY rowid'),
    };
  }

  async function merges(): Promise<MergeRecord[]> {
    const result = await call('GET', '/nodes/merges');
    expect(result.status, result.text).toBe(200);
    return (result.body as { data: MergeRecord[] }).data;
  }

  async function merge(kept: string, merged: string[]): Promise<string> {
    const result = await call('POST', `/nodes/${kept}/merge`, { node_ids: merged });
    expect(result.status, result.text).toBe(200);
    const { merge_id } = result.body as { merge_id: string };
    expect(merge_id).toMatch(/^merge_/);
    return merge_id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    db = (await server.platform.databases.current()).db;
  });
  afterAll(() => server.stop());

  it('restores both entities, their edges, aliases, properties, sources, citations and vectors byte for byte', async () => {
    const kept = await node(
      'Ada Lovelace',
      { aliases: ['Countess of Lovelace'], description: 'Mathematician' },
      [1, 0, 0],
    );
    const merged = await node('Augusta Ada King', { aliases: ['Ada King'], born: '1815' }, [0, 1, 0]);
    const babbage = await node('Charles Babbage');
    const london = await node('London');
    const referrer = await node('Analytical Engine', { designer_ref: merged });
    const keptKnows = await edge(kept, babbage, 'knows', { since: '1833' });
    const mergedKnows = await edge(merged, babbage, 'knows', { where: 'London' });
    const livedIn = await edge(merged, london, 'lived_in');
    await edge(babbage, merged, 'corresponded_with');
    const sameAs = await edge(kept, merged, 'same_as');
    await source('src_kept', [kept, babbage], [keptKnows]);
    await source('src_merged', [merged, london], [mergedKnows, livedIn]);
    await source('src_both', [kept, merged], [keptKnows, mergedKnows, sameAs]);
    // Citations that move, one passage cited for both (united by the merge), and one of an edge the merge removes.
    await cite('cite_kept', 'src_kept', { node: kept }, 'Ada wrote the notes.');
    await cite('cite_merged', 'src_merged', { node: merged }, 'Augusta Ada King lived in London.');
    await cite('cite_both_kept', 'src_both', { node: kept }, 'Ada, the countess,');
    await cite('cite_both_merged', 'src_both', { node: merged }, 'born Augusta Ada King.');
    await cite('rcite_kept', 'src_both', { edge: keptKnows }, 'Ada knew Babbage.');
    await cite('rcite_merged', 'src_both', { edge: mergedKnows }, 'Augusta knew Babbage.');
    await cite('rcite_lived', 'src_merged', { edge: livedIn }, 'She lived in London.');
    await cite('rcite_same', 'src_both', { edge: sameAs }, 'Ada is Augusta.');
    const before = await graphState();
    const citationsBefore = await citationsRead([kept, merged], ['src_kept', 'src_merged', 'src_both']);

    const mergeId = await merge(kept, [merged]);
    const mergedState = await graphState();
    expect(mergedState.source_citations).not.toEqual(before.source_citations);
    expect(mergedState.graph_nodes.some((row) => (row as { id: string }).id === merged)).toBe(false);
    expect(await merges()).toEqual([
      expect.objectContaining({
        merge_id: mergeId,
        kept_node_id: kept,
        kept_label: 'Ada Lovelace',
        merged: [{ id: merged, label: 'Augusta Ada King' }],
        undoable: true,
      }),
    ]);

    const undone = await call('POST', `/nodes/merges/${mergeId}/undo`);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toEqual({ merge_id: mergeId, restored_node_ids: [merged], kept_node_id: kept });
    expect(await graphState()).toEqual(before);
    expect(await citationsRead([kept, merged], ['src_kept', 'src_merged', 'src_both'])).toEqual(citationsBefore);
    // The restored node reads as before through the API, and search finds it by its own name again.
    const restored = await call('GET', `/nodes/${merged}`);
    expect(restored.body).toMatchObject({ label: 'Augusta Ada King', properties: { born: '1815' } });
    const referring = await call('GET', `/nodes/${referrer}`);
    expect(referring.body).toMatchObject({ properties: { designer_ref: merged } });

    expect((await merges())[0]).toMatchObject({ merge_id: mergeId, undoable: false });
    const twice = await call('POST', `/nodes/merges/${mergeId}/undo`);
    expect(twice.status, twice.text).toBe(409);
    expect(twice.body).toMatchObject({ message: expect.stringContaining('undone') });
  });

  it('undoes a merge after the kept node was embedded again by the server, as merges of extracted entities are', async () => {
    const kept = await node('Albert Einstein', { description: 'Physicist' });
    const merged = await node('Albert Einstien');
    // The API's copy of a node's vector, which the merge clears and the server's embedding fills again.
    const embedded = async (id: string) =>
      ((await db('graph_nodes').where({ id }).first('embedding')) as { embedding: string | null }).embedding !== null;
    await until(async () => (await embedded(kept)) && (await embedded(merged)), {
      what: 'both nodes embedded by the server',
    });
    const before = await graphState();

    const mergeId = await merge(kept, [merged]);
    // The merge gave the kept node an alias, so its vector is made again from the new text.
    expect(await embedded(kept)).toBe(false);
    await until(() => embedded(kept), { what: 'the kept node embedded again after the merge', timeoutMs: 20_000 });
    expect((await merges()).find((record) => record.merge_id === mergeId)).toMatchObject({ undoable: true });

    const undone = await call('POST', `/nodes/merges/${mergeId}/undo`);
    expect(undone.status, undone.text).toBe(200);
    expect(await graphState()).toEqual(before);
  });

  it('refuses with 409 and says what changed when the kept node changed since, writing nothing', async () => {
    const kept = await node('Grace Hopper');
    const merged = await node('Grace Brewster Murray Hopper');
    const navy = await node('US Navy');
    await edge(merged, navy, 'served_in');
    const mergeId = await merge(kept, [merged]);
    const patched = await call('PATCH', `/nodes/${kept}`, { label: 'Rear Admiral Grace Hopper' });
    expect(patched.status, patched.text).toBe(200);
    await edge(kept, navy, 'commanded');
    // The server embeds new and edited nodes in the background: the state compared is the one after that.
    await until(async () => !(await db('graph_nodes').whereNull('embedding').first()), {
      what: 'every node embedded',
      timeoutMs: 20_000,
    });
    const state = await graphState();

    const refused = await call('POST', `/nodes/merges/${mergeId}/undo`);
    expect(refused.status, refused.text).toBe(409);
    const { message, details } = refused.body as { message: string; details: { changes: string[] } };
    expect(message).toContain('kept node was edited');
    expect(details.changes).toEqual(
      expect.arrayContaining([expect.stringContaining('edited'), expect.stringContaining('edges of the kept node')]),
    );
    expect(await graphState()).toEqual(state);
    expect((await merges()).find((record) => record.merge_id === mergeId)).toMatchObject({ undoable: true });
  });

  it('answers 404 for an unknown merge and for one past the retention window', async () => {
    const unknown = await call('POST', '/nodes/merges/merge_nothing/undo');
    expect(unknown.status, unknown.text).toBe(404);

    const kept = await node('Alan Turing');
    const merged = await node('A. M. Turing');
    const mergeId = await merge(kept, [merged]);
    const [record] = await merges();
    expect(record.merge_id).toBe(mergeId);
    const days = (Date.parse(record.expires_at) - Date.parse(record.merged_at)) / 86_400_000;
    expect(days).toBe(30);
    await db('node_merges')
      .where({ id: mergeId })
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const expired = await call('POST', `/nodes/merges/${mergeId}/undo`);
    expect(expired.status, expired.text).toBe(404);
    expect((await merges()).some((entry) => entry.merge_id === mergeId)).toBe(false);
  });

  it('lists merges newest first, paged', async () => {
    const all = await merges();
    const times = all.map((record) => record.merged_at);
    expect(times).toEqual([...times].sort().reverse());
    const page = await call('GET', '/nodes/merges?page=1&page_size=1');
    expect(page.body).toMatchObject({ data: [all[0]], pagination: { total: all.length, page_size: 1 } });
  });
});
