import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/index.ts';
import { canvasData } from '../../src/graph/canvas.ts';
import { listDuplicateProposals } from '../../src/graph/duplicates/proposals.ts';
import { groundingNeighbors } from '../../src/graph/grounding.ts';
import { edgeTable, itemPage, itemsQuery, nodeTable } from '../../src/graph/items.ts';
import { cleanupGraph } from '../../src/graph/maintenance-tasks.ts';
import { nodeNames, resolveName } from '../../src/graph/node-lookup.ts';
import {
  citationsPage,
  disabledSourceIds,
  edgeCitationsPage,
  nodesOfDisabledSourcesOnly,
  nodesOfSources,
  sourceContributions,
  sourceCount,
  sourceGroups,
} from '../../src/graph/read-model.ts';
import { buildSnapshot, isSnapshotStale, readSnapshot } from '../../src/graph/snapshot.ts';
import { graphStatistics } from '../../src/graph/statistics.ts';
import { listTemplates } from '../../src/graph/templates/repo.ts';
import { shortestPath, traverse } from '../../src/graph/walk.ts';
import { insertEdges } from '../../src/graph/writes/edges.ts';
import { insertNodes, nodesByNameKey } from '../../src/graph/writes/nodes.ts';
import {
  linkEdgeSources,
  linkNodeSources,
  linkSourceTemplates,
  removeSourceGraph,
} from '../../src/graph/writes/provenance.ts';
import { insertTemplates, templateIdentities } from '../../src/graph/writes/templates.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };
const template = (id: string, name: string, type: 'node' | 'edge', extra = {}) => ({
  id,
  name,
  template_type: type,
  description: null,
  icon: null,
  color: null,
  properties: '[]',
  is_system: false,
  extracted: false,
  source_id: null,
  ...stamps,
  ...extra,
});
const node = (id: string, label: string, properties: Record<string, unknown> = {}, extra = {}) => ({
  id,
  template_id: 'person',
  label,
  properties,
  name_key: label.toLowerCase(),
  extracted: true,
  ...stamps,
  ...extra,
});
const edge = (id: string, from: string, to: string, label: string, extra = {}) => ({
  id,
  template_id: 'knows',
  source_node_id: from,
  target_node_id: to,
  label,
  properties: {},
  extracted: true,
  ...stamps,
  ...extra,
});

/**
 * The graph's reads and writes beyond the node and edge repositories — the read model of sources and
 * citations, the canvas, name lookups, walks, orders, statistics, the snapshot, grounding, provenance,
 * duplicates and the clean-up — answer the same on a SQLite file and on PostgreSQL.
 */
describe.each(dialects)('the graph on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  const sorted = (ids: string[]) => [...ids].sort();

  beforeAll(async () => {
    db = await databases.open('graph');
    const source = (id: string, title: string | null, extra = {}) => ({
      id,
      title,
      filename: null,
      enabled: true,
      source_type: 'text',
      status: 'indexed' as const,
      ...stamps,
      ...extra,
    });
    await db('sources').insert([
      source('letters', 'Letters'),
      source('diary', null, { filename: 'diary.txt' }),
      source('off', 'Off', { enabled: false }),
      source('photo', 'Photo', { source_type: 'image', status: 'committed' }),
    ]);
    await insertTemplates(db, [
      template('person', 'person', 'node'),
      template('Place', 'Place', 'node'),
      template('knows', 'knows', 'edge'),
      template('zeta', 'Zeta', 'node', { extracted: true, source_id: 'photo' }),
    ]);
    await db('document_chunks').insert([
      { id: 'letters_0', source_id: 'letters', chunk_index: 0, content: 'Ada wrote to Bob.', created_at: at },
      { id: 'photo_0', source_id: 'photo', chunk_index: 0, content: 'A portrait of Cy.', created_at: at },
    ]);
    await insertNodes(db, [
      node('ada', 'Ada Lovelace', { aliases: ['Countess of Lovelace', 'A. Lovelace'], confidence: 0.9 }),
      node('bob', 'Bob', { confidence: 0.4 }, { position_x: 3, position_y: 4 }),
      node('cy', 'Cy', {}, { source_id: 'photo' }),
      node('dee', 'Dee', { confidence: 'high' }),
      node('eve', 'Eve', {}, { extracted: false }),
      node('lovelace', 'A. Lovelace', { confidence: 0.7 }),
      node('paris', 'paris', { aliases: 'Lutetia' }, { template_id: 'Place' }),
    ]);
    await insertEdges(db, [
      edge('e1', 'ada', 'bob', 'knows'),
      edge('e2', 'bob', 'cy', 'Met'),
      edge('e3', 'cy', 'dee', 'knows'),
      edge('e4', 'dee', 'paris', 'lives in', { source_id: 'off' }),
      edge('e5', 'lovelace', 'bob', 'knows'),
    ]);
    await linkNodeSources(db, [
      { node_id: 'ada', source_id: 'letters' },
      { node_id: 'bob', source_id: 'letters' },
      { node_id: 'bob', source_id: 'diary' },
      { node_id: 'dee', source_id: 'off' },
      { node_id: 'paris', source_id: 'off' },
      { node_id: 'paris', source_id: 'diary' },
    ]);
    await linkNodeSources(db, [{ node_id: 'ada', source_id: 'letters' }]);
    await linkEdgeSources(db, [
      { edge_id: 'e1', source_id: 'letters' },
      { edge_id: 'e3', source_id: 'off' },
    ]);
    await db('source_citations').insert([
      { id: 'c1', entity_uri: 'ada', source_id: 'letters', chunk_id: 'letters_0', confidence: 0.8, created_at: at },
      { id: 'c2', entity_uri: 'cy', source_id: 'photo', chunk_id: 'photo_0', confidence: 1, created_at: at },
      { id: 'c3', entity_uri: 'ada', source_id: 'diary', chunk_id: null, confidence: 1, created_at: '2026-02-01' },
    ]);
    await db('relationship_citations').insert({
      id: 'r1',
      edge_id: 'e1',
      source_id: 'letters',
      chunk_id: 'letters_0',
      confidence: 1,
      created_at: at,
    });
  }, 120_000);
  afterAll(() => databases.close());

  it('reads sources, the nodes they show and their citations', async () => {
    expect(await disabledSourceIds(db)).toEqual(['off']);
    expect(sorted(await nodesOfSources(db, ['letters', 'photo', 'off']))).toEqual(['ada', 'bob', 'cy']);
    expect(await nodesOfSources(db, ['nothing'])).toEqual([]);
    expect(await nodesOfDisabledSourcesOnly(db)).toEqual(['dee']);
    expect(await sourceCount(db)).toBe(4);
    expect(await sourceContributions(db)).toEqual([
      { source_id: 'off', title: 'Off', node_count: 2, edge_count: 2 },
      { source_id: 'letters', title: 'Letters', node_count: 2, edge_count: 1 },
      { source_id: 'diary', title: null, node_count: 2, edge_count: 0 },
      { source_id: 'photo', title: 'Photo', node_count: 1, edge_count: 0 },
    ]);
    expect((await sourceGroups(db)).groups).toEqual([
      expect.objectContaining({ source_id: 'photo', title: 'Photo', entity_count: 1, entity_node_ids: ['cy'] }),
    ]);
    const citations = await citationsPage(db, 'ada', { offset: 0, limit: 10 });
    expect(citations.total).toBe(2);
    expect(citations.rows.map((row) => [row.id, row.source.title, row.chunk?.content ?? null, row.confidence])).toEqual(
      [
        ['c1', 'Letters', 'Ada wrote to Bob.', 0.8],
        ['c3', 'diary.txt', null, 1],
      ],
    );
    expect((await citationsPage(db, 'ada', { offset: 5, limit: 10 })).rows).toEqual([]);
    expect((await edgeCitationsPage(db, 'e1', { offset: 0, limit: 10 })).rows.map((row) => row.id)).toEqual(['r1']);
  });

  it('draws the canvas without what only disabled sources gave, capped by degree, cached until a write', async () => {
    const everything = await canvasData(db, { maxNodes: 100, maxEdges: 100 });
    expect(sorted(everything.nodes.map((n) => n.id))).toEqual(['ada', 'bob', 'cy', 'eve', 'lovelace', 'paris']);
    expect(everything.nodes.find((n) => n.id === 'bob')).toEqual({
      id: 'bob',
      template_id: 'person',
      label: 'Bob',
      position: { x: 3, y: 4 },
      source_id: 'diary',
    });
    expect(sorted(everything.edges.map((e) => e.id))).toEqual(['e1', 'e2', 'e5']);
    expect(everything.templates.map((t) => t.id)).toEqual(['Place', 'person', 'knows']);
    expect([everything.total_nodes, everything.total_edges, everything.truncated]).toEqual([6, 3, false]);

    const capped = await canvasData(db, { maxNodes: 2, maxEdges: 1 });
    expect(capped.nodes.map((n) => n.id)).toEqual(['bob', 'cy']);
    expect(capped.edges.map((e) => e.id)).toEqual(['e2']);
    expect(capped.truncated).toBe(true);

    const letters = await canvasData(db, { maxNodes: 100, maxEdges: 100, sourceIds: ['letters'] });
    expect([sorted(letters.nodes.map((n) => n.id)), letters.edges.map((e) => e.id), letters.total_edges]).toEqual([
      ['ada', 'bob'],
      ['e1'],
      1,
    ]);
    expect((await canvasData(db, { maxNodes: 9, maxEdges: 9, sourceIds: ['off'] })).nodes).toEqual([]);

    expect(await canvasData(db, { maxNodes: 100, maxEdges: 100 })).toBe(everything);
    await db('graph_nodes').where({ id: 'eve' }).update({ label: 'Eve Again' });
    const changed = await canvasData(db, { maxNodes: 100, maxEdges: 100 });
    expect(changed).not.toBe(everything);
    expect(changed.nodes.find((n) => n.id === 'eve')?.label).toBe('Eve Again');
  });

  it('finds nodes by id and by name or alias, ignoring case', async () => {
    expect(Object.fromEntries(await nodeNames(db, ['ada', 'paris', 'ada', 'gone']))).toEqual({
      ada: { label: 'Ada Lovelace', template_id: 'person' },
      paris: { label: 'paris', template_id: 'Place' },
    });
    expect(await resolveName(db, ' a. LOVELACE ', 5)).toEqual([
      { id: 'lovelace', label: 'A. Lovelace', template_id: 'person', matched: 'label' },
      { id: 'ada', label: 'Ada Lovelace', template_id: 'person', matched: 'alias' },
    ]);
    expect(await resolveName(db, 'a. lovelace', 1)).toHaveLength(1);
    expect(await resolveName(db, 'countess of lovelace', 5)).toEqual([
      { id: 'ada', label: 'Ada Lovelace', template_id: 'person', matched: 'alias' },
    ]);
    // An alias that is not a list does not count, and the word "aliases" in a label matches nothing.
    expect(await resolveName(db, 'lutetia', 5)).toEqual([]);
    expect(await resolveName(db, 'aliases', 5)).toEqual([]);
  });

  it('walks edges a hop at a time, by direction and relationship type', async () => {
    const anyWay = { direction: 'both' as const, relationshipTypes: [] };
    expect((await shortestPath(db, 'ada', 'dee', 5, anyWay))?.map((step) => step.edge_id)).toEqual(['e1', 'e2', 'e3']);
    expect(await shortestPath(db, 'dee', 'ada', 5, { direction: 'outgoing', relationshipTypes: [] })).toBeNull();
    const met = await traverse(db, 'bob', 2, 10, { direction: 'outgoing', relationshipTypes: ['MET'] });
    expect(met.reached.map((reached) => [reached.node_id, reached.depth])).toEqual([['cy', 1]]);
    const around = await traverse(db, 'bob', 1, 2, anyWay);
    expect([around.reached.length, around.truncated]).toEqual([2, true]);
  });

  it('orders lists by confidence, source count and label, ties by creation', async () => {
    const page = async (order: { by: 'confidence' | 'source_count' | 'label'; direction?: 'asc' | 'desc' }) =>
      (
        await itemPage<{ id: string }>(() => itemsQuery(db, nodeTable), ['id'], { offset: 0, limit: 20, order })
      ).rows.map((row) => row.id);
    expect(await page({ by: 'confidence' })).toEqual(['ada', 'lovelace', 'bob', 'cy', 'dee', 'eve', 'paris']);
    expect(await page({ by: 'confidence', direction: 'asc' })).toEqual([
      'bob',
      'lovelace',
      'ada',
      'cy',
      'dee',
      'eve',
      'paris',
    ]);
    expect((await page({ by: 'source_count' })).slice(0, 2)).toEqual(['bob', 'paris']);
    const edges = await itemPage<{ id: string }>(() => itemsQuery(db, edgeTable, ['letters']), ['id'], {
      offset: 0,
      limit: 20,
    });
    expect(edges.rows.map((row) => row.id)).toEqual(['e1']);
  });

  it('counts the graph, lists templates ignoring case and keeps a snapshot', async () => {
    const statistics = await graphStatistics(db);
    const templates = Number((await db('graph_templates').count({ n: '*' }).first())?.n);
    expect(statistics.counts).toEqual({ nodes: 7, edges: 5, templates });
    expect(statistics.node_types.slice(0, 2)).toEqual([
      { type: 'person', count: 6 },
      { type: 'Place', count: 1 },
    ]);
    expect(statistics.relationship_types[0]).toEqual({ type: 'knows', count: 3 });
    expect(statistics.degree_distribution).toEqual([
      { degree: '0', nodes: 1 },
      { degree: '1', nodes: 3 },
      { degree: '2-3', nodes: 3 },
      { degree: '4-9', nodes: 0 },
      { degree: '10-99', nodes: 0 },
      { degree: '100+', nodes: 0 },
    ]);

    const names = (await listTemplates(db, { templateType: 'node', offset: 0, limit: 50 })).templates
      .map((t) => t.name)
      .filter((name) => ['person', 'Place', 'Zeta'].includes(name));
    expect(names).toEqual(['person', 'Place', 'Zeta']);

    const breakdown = await buildSnapshot(db, new Date('2026-03-01T00:00:00.000Z'));
    expect(breakdown.totals).toEqual({ nodes: 7, edges: 5, templates, sources: 4 });
    expect(breakdown.node_templates.map((row) => [row.template_id, row.count])).toEqual([
      ['person', 6],
      ['Place', 1],
    ]);
    expect(breakdown.degree).toEqual({ min: 0, max: 3, mean: 1.429, median: 1, p90: 3, isolated_nodes: 1 });
    expect(breakdown.top_hubs.map((hub) => [hub.id, hub.degree])).toEqual([
      ['bob', 3],
      ['cy', 2],
      ['dee', 2],
      ['ada', 1],
      ['lovelace', 1],
      ['paris', 1],
    ]);
    await buildSnapshot(db, new Date('2026-03-01T00:30:00.000Z'));
    const stored = (await readSnapshot(db))!;
    expect([stored.generated_at, stored.node_count, stored.edge_count]).toEqual(['2026-03-01T00:30:00.000Z', 7, 5]);
    expect(await isSnapshotStale(db, stored, Date.parse('2026-03-01T00:40:00.000Z'))).toBe(false);
  });

  it("gives grounding agents a node's neighbours, outgoing first", async () => {
    const around = await groundingNeighbors(db, 'bob', 'both', 2);
    expect(around.total).toBe(3);
    expect(around.neighbors.map((n) => [n.direction, n.node.id, n.relationship_type])).toEqual([
      ['outgoing', 'cy', 'Met'],
      ['incoming', 'ada', 'knows'],
    ]);
  });

  it('proposes duplicates from names and aliases', async () => {
    const { items } = await listDuplicateProposals(db, 0.3, { offset: 0, limit: 10 });
    const pair = items.find((item) => sorted(item.nodes.map((n) => n.id)).join() === 'ada,lovelace');
    expect(pair?.nodes.find((n) => n.id === 'ada')).toMatchObject({
      aliases: ['Countess of Lovelace', 'A. Lovelace'],
      source_count: 1,
    });
    expect(pair?.evidence.some((finding) => finding.kind === 'alias')).toBe(true);
  });

  it('finds nodes by name key, records and takes back what a source contributed', async () => {
    expect((await nodesByNameKey(db, ['bob', 'paris'])).map((row) => [row.id, row.template_name]).sort()).toEqual([
      ['bob', 'person'],
      ['paris', 'Place'],
    ]);
    await insertTemplates(db, [template('knows', 'renamed', 'edge'), template('made', 'Made', 'node')], {
      skipExisting: true,
    });
    await insertNodes(db, [node('bob', 'Robert'), node('gil', 'Gil', {}, { template_id: 'zeta' })], {
      skipExisting: true,
    });
    expect(await db('graph_nodes').where({ id: 'bob' }).first('label')).toEqual({ label: 'Bob' });
    const identities = await templateIdentities(db);
    expect(identities.find((row) => row.id === 'knows')).toMatchObject({ name: 'knows', extracted: 0 });
    expect(identities.find((row) => row.id === 'zeta')).toMatchObject({ is_system: 0, extracted: 1 });
    expect(identities.at(-1)?.id).toBe('made');

    await linkNodeSources(db, [{ node_id: 'gil', source_id: 'photo' }]);
    await linkSourceTemplates(db, 'letters');
    await linkSourceTemplates(db, 'letters');
    await linkSourceTemplates(db, 'photo');
    const used = await db('template_sources').orderBy(['source_id', 'template_id']).select('template_id', 'source_id');
    expect(used).toEqual([
      { template_id: 'knows', source_id: 'letters' },
      { template_id: 'person', source_id: 'letters' },
      { template_id: 'zeta', source_id: 'photo' },
    ]);
    // gil and the template made for the photo go with it; cy stays (the photo is only its source_id).
    expect(await removeSourceGraph(db, 'photo')).toEqual({ nodes: ['gil'], edges: [] });
    expect(await db('graph_templates').where({ id: 'zeta' }).first()).toBeUndefined();
    expect(await db('graph_nodes').where({ id: 'cy' }).first('id')).toEqual({ id: 'cy' });
  });

  it('cleans up nodes and edges without a label', async () => {
    await db('graph_nodes').where({ id: 'eve' }).update({ label: '  ' });
    await insertEdges(db, [edge('e6', 'eve', 'ada', 'knows'), edge('e7', 'ada', 'cy', ' ')]);
    expect(await cleanupGraph(db)).toEqual({ nodes_removed: 1, edges_removed: 2 });
    expect(await db('graph_nodes').where({ id: 'eve' }).first()).toBeUndefined();
    expect(sorted((await db('graph_edges').select('id')).map((row) => row.id))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(await cleanupGraph(db)).toEqual({ nodes_removed: 0, edges_removed: 0 });
  });
});
