import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/index.ts';
import { mergedCitations } from '../../src/extraction/citations.ts';
import { GraphEventBus } from '../../src/graph/events.ts';
import { indexNewNodes } from '../../src/graph/search-index.ts';
import { mergeNodes } from '../../src/graph/nodes/merge.ts';
import { undoMerge } from '../../src/graph/nodes/merge-undo.ts';
import { insertNodeRows, type NodeRow } from '../../src/graph/nodes/repo.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

const node = (id: string, label: string, properties: Record<string, unknown> = {}): NodeRow => ({
  id,
  template_id: 'person',
  label,
  properties: JSON.stringify(properties),
  position_x: null,
  position_y: null,
  embedding: null,
  source_id: null,
  created_at: at(1),
  updated_at: at(1),
});

/** A node merge moves edges, source links and citations, and its undo puts every row back, on both dialects. */
describe.each(dialects)('node merge and undo on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('merge');
    const stamps = { created_at: at(0), updated_at: at(0) };
    await db('graph_templates').insert([
      { id: 'person', name: 'Person', template_type: 'node', properties: '[]', ...stamps },
      { id: 'knows', name: 'knows', template_type: 'edge', properties: '[]', ...stamps },
    ]);
    await db('sources').insert([
      { id: 's1', title: 'Letters', ...stamps },
      { id: 's2', title: 'Diaries', ...stamps },
    ]);
    await db('document_chunks').insert({
      id: 'c1',
      source_id: 's1',
      chunk_index: 0,
      content: 'Ada met Bob.',
      created_at: at(0),
    });
    const nodes = [
      node('ada', 'Ada Lovelace', { born: 1815 }),
      node('ada2', 'Ada King', { title: 'Countess', friend: 'bob' }),
      node('bob', 'Bob', { knows: 'ada2' }),
    ];
    await insertNodeRows(db, nodes);
    await indexNewNodes(
      db,
      nodes.map((row) => ({ id: row.id, label: row.label, properties: JSON.parse(row.properties) })),
    );
    const edge = (id: string, from: string, to: string) => ({
      id,
      template_id: 'knows',
      source_node_id: from,
      target_node_id: to,
      label: 'knows',
      properties: '{}',
      created_at: at(2),
      updated_at: at(2),
    });
    await db('graph_edges').insert([
      edge('e_ada', 'ada', 'bob'),
      edge('e_ada2', 'ada2', 'bob'),
      edge('e_pair', 'ada', 'ada2'),
    ]);
    await db('node_sources').insert([
      { node_id: 'ada', source_id: 's1' },
      { node_id: 'ada2', source_id: 's1' },
      { node_id: 'ada2', source_id: 's2' },
    ]);
    await db('edge_sources').insert([{ edge_id: 'e_ada2', source_id: 's2' }]);
    const citation = (id: string, entity: string, second: number, snippet: string) => ({
      id,
      entity_uri: entity,
      source_id: 's1',
      chunk_id: 'c1',
      confidence: 0.5 + second / 100,
      context_snippet: snippet,
      created_at: at(second),
    });
    await db('source_citations').insert([
      citation('cit_ada', 'ada', 3, 'Ada met Bob.'),
      citation('cit_ada2', 'ada2', 4, 'Ada met Bob.'),
    ]);
    await db('relationship_citations').insert({
      id: 'rc',
      edge_id: 'e_ada2',
      source_id: 's1',
      chunk_id: 'c1',
      created_at: at(5),
    });
  }, 120_000);
  afterAll(() => databases.close());

  /** Every row a merge touches, rowids included. */
  const snapshot = async () => ({
    nodes: await db('graph_nodes').orderBy('id').select('rowid', 'id', 'label', 'properties', 'degree'),
    edges: await db('graph_edges').orderBy('id').select('rowid', 'id', 'source_node_id', 'target_node_id'),
    nodeSources: await db('node_sources').orderBy(['node_id', 'source_id']).select('node_id', 'source_id'),
    edgeSources: await db('edge_sources').orderBy(['edge_id', 'source_id']).select('edge_id', 'source_id'),
    citations: await db('source_citations').orderBy('id').select('rowid', 'id', 'entity_uri', 'confidence'),
    relationshipCitations: await db('relationship_citations').orderBy('id').select('rowid', 'id', 'edge_id'),
    fulltext: await db('fts_nodes').orderBy('rowid').select('rowid', 'node_id'),
  });

  it('merges, then undoes the merge row for row, giving a citation whose rowid was taken a fresh one', async () => {
    const before = await snapshot();
    const scope = { db, database: 'merge', events: new GraphEventBus() };
    const outcome = await mergeNodes(scope, mergedCitations, 'ada', ['ada2'], 30);
    expect(outcome).toMatchObject({
      merged_node_ids: ['ada2'],
      edges_collapsed: 1,
      edges_removed: 1,
      citations_moved: 1,
      node: { id: 'ada', label: 'Ada Lovelace', properties: { born: 1815, title: 'Countess' } },
    });
    const merged = await snapshot();
    expect(merged.nodes.map((row) => [row.id, row.degree])).toEqual([
      ['ada', 1],
      ['bob', 1],
    ]);
    expect(merged.nodes.find((row) => row.id === 'bob')?.properties).toBe('{"knows":"ada"}');
    expect(merged.edges.map((row) => row.id)).toEqual(['e_ada']);
    expect(merged.nodeSources).toEqual([
      { node_id: 'ada', source_id: 's1' },
      { node_id: 'ada', source_id: 's2' },
    ]);
    expect(merged.edgeSources).toEqual([{ edge_id: 'e_ada', source_id: 's2' }]);
    expect(merged.citations.map((row) => [row.id, row.entity_uri, row.confidence])).toEqual([['cit_ada', 'ada', 0.54]]);
    expect(merged.relationshipCitations.map((row) => [row.id, row.edge_id])).toEqual([['rc', 'e_ada']]);

    // Another citation takes the rowid of the one the merge united away.
    const gone = before.citations.find((row) => row.id === 'cit_ada2')!;
    await db('source_citations').insert({
      rowid: gone.rowid,
      id: 'late',
      entity_uri: 'bob',
      source_id: 's1',
      chunk_id: 'c1',
      created_at: at(9),
    });

    expect(await undoMerge(db, mergedCitations, outcome.merge_id)).toEqual({
      merge_id: outcome.merge_id,
      restored_node_ids: ['ada2'],
      kept_node_id: 'ada',
    });
    const undone = await snapshot();
    expect({ ...undone, citations: undefined }).toEqual({ ...before, citations: undefined });
    const citations = new Map(undone.citations.map((row) => [row.id, row]));
    expect(citations.get('cit_ada')).toEqual(before.citations.find((row) => row.id === 'cit_ada'));
    expect(citations.get('late')?.rowid).toBe(gone.rowid);
    expect(citations.get('cit_ada2')).toMatchObject({ entity_uri: 'ada2', confidence: 0.54 });
    expect(citations.get('cit_ada2')!.rowid).toBeGreaterThan(Math.max(...before.citations.map((row) => row.rowid)));
  });
});
