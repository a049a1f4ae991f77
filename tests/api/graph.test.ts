import type { Knex } from 'knex';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { type PageOf } from '../support/api-assertions.ts';
import type { CanvasPayload as Canvas } from '@rhizome/core/graph';
import type { GraphBreakdown as Breakdown } from '@rhizome/core/graph';
import { until, waitForTask } from '../support/wait.ts';

interface GroundNode {
  id: string;
  label: string;
  template_id: string;
  properties: Record<string, unknown>;
  [key: string]: unknown;
}

interface GroundEdge {
  id: string;
  source_node_id: string;
  target_node_id: string;
  [key: string]: unknown;
}

interface Task {
  task_id: string;
  operation: string;
  status: string;
  data: Record<string, unknown>;
}

const person = 'system_template_person';
const item = 'system_template_item';
const link = 'system_template_link';
const nodeKeys = [
  'id',
  'template_id',
  'label',
  'properties',
  'position',
  'embedding',
  'source_id',
  'created_at',
  'updated_at',
  'edge_count',
  'incoming_edge_count',
  'outgoing_edge_count',
  'citation_count',
  'relationship_type_count',
].sort();
const edgeKeys = [
  'id',
  'template_id',
  'source_node_id',
  'target_node_id',
  'label',
  'properties',
  'created_at',
  'updated_at',
].sort();
const ids = (list: { id: string }[]) => list.map((entry) => entry.id).sort();

describe('graph endpoints', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  function ok<T>(result: CallResult, status = 200): T {
    expect(result.status, result.text).toBe(status);
    return result.body as T;
  }

  /** Rows in insertion order with increasing timestamps (grounding lists are in insertion order). */
  const stamp = () => new Date((clock += 1000)).toISOString();

  async function addSource(
    id: string,
    fields: {
      source_type?: string;
      status?: SourceStatus;
      enabled?: boolean;
      title?: string;
      filename?: string;
      extraction_domain?: string;
    } = {},
  ) {
    const now = stamp();
    await db('sources').insert({
      id,
      title: fields.title ?? `Title ${id}`,
      filename: fields.filename ?? `${id}.png`,
      source_type: fields.source_type ?? 'image',
      status: fields.status ?? 'committed',
      enabled: (fields.enabled ?? true) ? 1 : 0,
      extraction_domain: fields.extraction_domain ?? null,
      created_at: now,
      updated_at: now,
    });
  }

  async function addNode(
    id: string,
    fields: {
      label?: string;
      template?: string;
      source?: string | null;
      properties?: Record<string, unknown>;
      position?: [number, number];
    } = {},
  ) {
    const now = stamp();
    await db('graph_nodes').insert({
      id,
      template_id: fields.template ?? person,
      label: fields.label ?? `Label ${id}`,
      properties: JSON.stringify(fields.properties ?? {}),
      position_x: fields.position?.[0] ?? null,
      position_y: fields.position?.[1] ?? null,
      embedding: null,
      source_id: fields.source ?? null,
      created_at: now,
      updated_at: now,
    });
  }

  async function addEdge(
    id: string,
    from: string,
    to: string,
    fields: { label?: string; template?: string; source?: string | null; properties?: Record<string, unknown> } = {},
  ) {
    const now = stamp();
    await db('graph_edges').insert({
      id,
      template_id: fields.template ?? link,
      source_node_id: from,
      target_node_id: to,
      label: fields.label ?? 'knows',
      properties: JSON.stringify(fields.properties ?? {}),
      source_id: fields.source ?? null,
      created_at: now,
      updated_at: now,
    });
  }

  async function patchSettings(patch: Record<string, unknown>): Promise<void> {
    ok(await call('PATCH', '/settings', patch));
  }

  const completedResult = async (taskId: string) =>
    (await waitForTask(call, taskId, { statuses: ['completed'] })).result;

  async function tasksOf(operation: string): Promise<Task[]> {
    return ok<PageOf<Task>>(await call('GET', '/queue/tasks?page_size=1000')).data.filter(
      (task) => task.operation === operation,
    );
  }

  async function idle(): Promise<void> {
    await until(async () => (await server.platform.tasks.counts()).every((lane) => lane.queued + lane.running === 0), {
      intervalMs: 20,
      what: 'the queue to drain',
    });
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    db = (await server.platform.databases.current()).db;
  });

  afterAll(() => server.stop());

  beforeEach(async () => {
    for (const table of ['source_citations', 'graph_edges', 'graph_nodes', 'sources', 'graph_snapshots', 'fts_nodes'])
      await db(table).delete();
  });

  afterEach(idle);

  it('every graph endpoint is in the OpenAPI document', async () => {
    const document = ok<{ paths: Record<string, Record<string, unknown>> }>(await call('GET', '/openapi.json'));
    const expected = [
      'post /graph/cleanup',
      'get /graph/source_groups',
      'get /graph/canvas',
      'get /graph/snapshot',
      'post /graph/snapshot/refresh',
      'get /graph/grounding/nodes',
      'get /graph/grounding/nodes/{node_id}',
      'get /graph/grounding/edges',
      'get /graph/grounding/nodes/{node_id}/neighbors',
    ];
    for (const entry of expected) {
      const [method, path] = entry.split(' ');
      expect(document.paths[path]?.[method], entry).toBeDefined();
    }
  });

  describe('GET /graph/canvas', () => {
    afterEach(() => patchSettings({ pagination: { canvas_max_nodes: 5000, canvas_max_edges: 15000 } }));

    it('returns lean nodes, edges and the templates they use, nothing else', async () => {
      await addSource('src_a', { source_type: 'text' });
      await addNode('n1', { label: 'Ada', position: [1.5, -2], properties: { secret: 'x' }, source: 'src_a' });
      await addNode('n2', { label: 'Bob' });
      await addNode('n3', { label: 'Widget', template: item, properties: { definition: 'a thing' } });
      await addEdge('e1', 'n1', 'n2', { label: 'knows' });
      await addEdge('e2', 'n2', 'n3', { label: 'owns' });

      const canvas = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect(Object.keys(canvas).sort()).toEqual([
        'edges',
        'nodes',
        'templates',
        'total_edges',
        'total_nodes',
        'truncated',
      ]);
      expect([...canvas.nodes].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'n1', template_id: person, label: 'Ada', position: { x: 1.5, y: -2 }, source_id: 'src_a' },
        { id: 'n2', template_id: person, label: 'Bob', position: null, source_id: null },
        { id: 'n3', template_id: item, label: 'Widget', position: null, source_id: null },
      ]);
      expect([...canvas.edges].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'e1', source_node_id: 'n1', target_node_id: 'n2', template_id: link, label: 'knows' },
        { id: 'e2', source_node_id: 'n2', target_node_id: 'n3', template_id: link, label: 'owns' },
      ]);
      // Only the templates in use, each with exactly the canvas fields.
      expect(ids(canvas.templates)).toEqual([item, person, link].sort());
      expect(canvas.templates.find((template) => template.id === person)).toEqual({
        id: person,
        name: 'Person',
        template_type: 'node',
        icon: 'user',
        color: '#2563eb',
        description: 'A human being',
      });
      expect(canvas).toMatchObject({ total_nodes: 3, total_edges: 2, truncated: false });
    });

    it('follows changes to the graph at once', async () => {
      await addNode('n1');
      expect(ok<Canvas>(await call('GET', '/graph/canvas')).total_nodes).toBe(1);
      await addNode('n2');
      await addEdge('e1', 'n1', 'n2');
      const canvas = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({ nodes: ids(canvas.nodes), edges: ids(canvas.edges) }).toEqual({ nodes: ['n1', 'n2'], edges: ['e1'] });
      await db('graph_nodes').where({ id: 'n1' }).update({ label: 'Renamed' });
      expect(ok<Canvas>(await call('GET', '/graph/canvas')).nodes.find((node) => node.id === 'n1')?.label).toBe(
        'Renamed',
      );
    });

    it('keeps the best-connected nodes at the node cap, only edges between them, and flags truncation', async () => {
      // Degrees: n1 4, n2 3, n3 3, n4 2, n5 2, n6 0.
      for (const id of ['n1', 'n2', 'n3', 'n4', 'n5', 'n6']) await addNode(id);
      const edges: [string, string][] = [
        ['n1', 'n2'],
        ['n1', 'n3'],
        ['n4', 'n1'],
        ['n5', 'n1'],
        ['n2', 'n3'],
        ['n2', 'n4'],
        ['n3', 'n5'],
      ];
      for (const [index, [from, to]] of edges.entries()) await addEdge(`e${index + 1}`, from, to);
      await patchSettings({ pagination: { canvas_max_nodes: 3, canvas_max_edges: 2 } });

      const canvas = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect(ids(canvas.nodes)).toEqual(['n1', 'n2', 'n3']);
      expect(canvas.edges).toHaveLength(2);
      const kept = new Set(['n1', 'n2', 'n3']);
      for (const edge of canvas.edges)
        expect(kept.has(edge.source_node_id) && kept.has(edge.target_node_id), edge.id).toBe(true);
      expect(canvas).toMatchObject({ total_nodes: 6, total_edges: 7, truncated: true });
    });

    it('flags truncation when only the edge cap is exceeded, not when a cap is merely reached', async () => {
      for (const id of ['n1', 'n2', 'n3']) await addNode(id);
      await addEdge('e1', 'n1', 'n2');
      await addEdge('e2', 'n2', 'n3');
      await patchSettings({ pagination: { canvas_max_nodes: 3, canvas_max_edges: 2 } });
      const exact = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({ nodes: exact.nodes.length, edges: exact.edges.length, truncated: exact.truncated }).toEqual({
        nodes: 3,
        edges: 2,
        truncated: false,
      });

      await addEdge('e3', 'n3', 'n1');
      const over = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({
        nodes: over.nodes.length,
        edges: over.edges.length,
        total_edges: over.total_edges,
        truncated: over.truncated,
      }).toEqual({ nodes: 3, edges: 2, total_edges: 3, truncated: true });
    });

    it('filters by source_ids (one or repeated): their nodes and the edges between them', async () => {
      for (const id of ['s1', 's2', 's3']) await addSource(id, { source_type: 'text' });
      await addNode('a1', { source: 's1' });
      await addNode('a2', { source: 's1' });
      await addNode('b1', { source: 's2' });
      await addNode('c1', { source: 's3' });
      await addNode('x');
      await addEdge('e_a1_a2', 'a1', 'a2');
      await addEdge('e_a1_b1', 'a1', 'b1');
      await addEdge('e_b1_c1', 'b1', 'c1');
      await addEdge('e_a2_x', 'a2', 'x');

      const one = ok<Canvas>(await call('GET', '/graph/canvas?source_ids=s1'));
      expect({
        nodes: ids(one.nodes),
        edges: ids(one.edges),
        total_nodes: one.total_nodes,
        total_edges: one.total_edges,
      }).toEqual({ nodes: ['a1', 'a2'], edges: ['e_a1_a2'], total_nodes: 2, total_edges: 1 });
      const two = ok<Canvas>(await call('GET', '/graph/canvas?source_ids=s1&source_ids=s2'));
      expect({
        nodes: ids(two.nodes),
        edges: ids(two.edges),
        total_nodes: two.total_nodes,
        total_edges: two.total_edges,
      }).toEqual({ nodes: ['a1', 'a2', 'b1'], edges: ['e_a1_a2', 'e_a1_b1'], total_nodes: 3, total_edges: 2 });
      const none = ok<Canvas>(await call('GET', '/graph/canvas?source_ids=unknown'));
      expect(none).toEqual({ nodes: [], edges: [], templates: [], total_nodes: 0, total_edges: 0, truncated: false });
    });

    it('leaves out the nodes of disabled sources and every edge touching them', async () => {
      await addSource('on', { source_type: 'text' });
      await addSource('off', { source_type: 'text', enabled: false });
      await addNode('a', { source: 'on' });
      await addNode('b', { source: 'off' });
      await addNode('c');
      await addEdge('e_ab', 'a', 'b');
      await addEdge('e_bc', 'b', 'c');
      await addEdge('e_ac', 'a', 'c');
      await addEdge('e_ca_off', 'c', 'a', { source: 'off' });

      const all = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({
        nodes: ids(all.nodes),
        edges: ids(all.edges),
        total_nodes: all.total_nodes,
        total_edges: all.total_edges,
      }).toEqual({ nodes: ['a', 'c'], edges: ['e_ac'], total_nodes: 2, total_edges: 1 });
      expect(ok<Canvas>(await call('GET', '/graph/canvas?source_ids=off')).nodes).toEqual([]);

      await db('sources').where({ id: 'off' }).update({ enabled: true });
      const enabled = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({ nodes: ids(enabled.nodes), total_edges: enabled.total_edges }).toEqual({
        nodes: ['a', 'b', 'c'],
        total_edges: 4,
      });
    });

    it('scopes and hides the nodes extraction links to their sources, as graph search does', async () => {
      await addSource('on', { source_type: 'text' });
      await addSource('off', { source_type: 'text', enabled: false });
      // Extraction leaves source_id empty and links each node to every source that gave it.
      for (const id of ['x_on', 'x_off', 'x_both']) await addNode(id);
      await db('node_sources').insert([
        { node_id: 'x_on', source_id: 'on' },
        { node_id: 'x_off', source_id: 'off' },
        { node_id: 'x_both', source_id: 'on' },
        { node_id: 'x_both', source_id: 'off' },
      ]);
      await addEdge('e_on_both', 'x_on', 'x_both');
      await addEdge('e_off_on', 'x_off', 'x_on');

      const all = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({ nodes: ids(all.nodes), edges: ids(all.edges), total_nodes: all.total_nodes }).toEqual({
        nodes: ['x_both', 'x_on'],
        edges: ['e_on_both'],
        total_nodes: 2,
      });
      const scoped = ok<Canvas>(await call('GET', '/graph/canvas?source_ids=on'));
      expect({ nodes: ids(scoped.nodes), total_edges: scoped.total_edges }).toEqual({
        nodes: ['x_both', 'x_on'],
        total_edges: 1,
      });
    });

    it('truncates by degree among the visible nodes only (disabled sources and the source filter apply first)', async () => {
      await addSource('s1', { source_type: 'text' });
      await addSource('off', { source_type: 'text', enabled: false });
      // Degrees: off_hub 3 (hidden), x 4, a1 3, a2 2.
      await addNode('off_hub', { source: 'off' });
      await addNode('a1', { source: 's1' });
      await addNode('a2', { source: 's1' });
      await addNode('x');
      await addEdge('e1', 'off_hub', 'a1');
      await addEdge('e2', 'off_hub', 'a2');
      await addEdge('e3', 'off_hub', 'x');
      await addEdge('e4', 'x', 'a1');
      await addEdge('e5', 'x', 'a2');
      await addEdge('e6', 'x', 'a1', { label: 'likes' });
      await patchSettings({ pagination: { canvas_max_nodes: 1 } });

      const all = ok<Canvas>(await call('GET', '/graph/canvas'));
      expect({
        nodes: ids(all.nodes),
        edges: all.edges,
        total_nodes: all.total_nodes,
        total_edges: all.total_edges,
        truncated: all.truncated,
      }).toEqual({ nodes: ['x'], edges: [], total_nodes: 3, total_edges: 3, truncated: true });
      const filtered = ok<Canvas>(await call('GET', '/graph/canvas?source_ids=s1'));
      expect({
        nodes: ids(filtered.nodes),
        total_nodes: filtered.total_nodes,
        total_edges: filtered.total_edges,
        truncated: filtered.truncated,
      }).toEqual({ nodes: ['a1'], total_nodes: 2, total_edges: 0, truncated: true });
    });
  });

  describe('GET /graph/source_groups', () => {
    it('lists committed image sources with their owned and cited entities, once each', async () => {
      await addSource('img_1', { title: 'Whiteboard', filename: 'board.png', extraction_domain: 'general' });
      await addSource('img_empty');
      await addSource('img_pending', { status: 'indexing' });
      await addSource('txt_1', { source_type: 'text' });
      await addNode('owned', { source: 'img_1' });
      await addNode('cited');
      await addNode('both', { source: 'img_1' });
      await addNode('pending_node', { source: 'img_pending' });
      await addNode('text_node', { source: 'txt_1' });
      const now = stamp();
      const cite = (id: string, node: string, source: string) => ({
        id,
        entity_uri: node,
        source_id: source,
        chunk_id: null,
        created_at: now,
      });
      await db('source_citations').insert([
        cite('c1', 'cited', 'img_1'),
        cite('c2', 'both', 'img_1'),
        cite('c3', 'cited', 'txt_1'),
      ]);

      const body = ok<{ groups: unknown[] }>(await call('GET', '/graph/source_groups'));
      expect(body).toEqual({
        groups: [
          {
            source_id: 'img_1',
            title: 'Whiteboard',
            source_type: 'image',
            filename: 'board.png',
            extraction_domain: 'general',
            extraction_domain_icon: null,
            entity_count: 3,
            entity_node_ids: ['both', 'cited', 'owned'],
          },
        ],
      });
    });

    it('is empty without committed image sources', async () => {
      await addSource('img_pending', { status: 'indexing' });
      await addNode('n', { source: 'img_pending' });
      expect(ok(await call('GET', '/graph/source_groups'))).toEqual({ groups: [] });
    });
  });

  describe('graph snapshot', () => {
    async function buildGraph(nodeCount: number): Promise<void> {
      for (let n = 1; n <= nodeCount; n++) await addNode(`n${n}`, { label: `Node ${n}` });
    }

    async function snapshotOnceBuilt(): Promise<Breakdown> {
      await idle();
      return ok<Breakdown>(await call('GET', '/graph/snapshot'));
    }

    it('answers 204 and queues one build when none exists; then serves the breakdown', async () => {
      await addSource('s1', { source_type: 'text', title: 'Doc' });
      await addNode('hub', { label: 'Hub', source: 's1' });
      await addNode('a', { label: 'A', source: 's1' });
      await addNode('b', { label: 'B' });
      await addNode('c', { label: 'C', template: item });
      await addNode('lonely', { label: 'Lonely' });
      await addEdge('e1', 'hub', 'a', { source: 's1' });
      await addEdge('e2', 'hub', 'b');
      await addEdge('e3', 'c', 'hub');
      // What extraction contributes is linked through node_sources and edge_sources, not source_id.
      await addSource('s2', { source_type: 'text', title: 'Extracted' });
      await db('node_sources').insert([
        { node_id: 'hub', source_id: 's1' },
        { node_id: 'b', source_id: 's1' },
        { node_id: 'c', source_id: 's2' },
        { node_id: 'lonely', source_id: 's2' },
        { node_id: 'hub', source_id: 's2' },
      ]);
      await db('edge_sources').insert([
        { edge_id: 'e2', source_id: 's1' },
        { edge_id: 'e3', source_id: 's2' },
      ]);
      const before = (await tasksOf('graph.snapshot_build')).length;

      const first = await call('GET', '/graph/snapshot');
      expect({ status: first.status, text: first.text }).toEqual({ status: 204, text: '' });
      const queued = await tasksOf('graph.snapshot_build');
      expect(queued.length).toBe(before + 1);
      expect(queued[0].data).toEqual({ database: 'default' });

      const breakdown = await snapshotOnceBuilt();
      expect(Date.now() - Date.parse(breakdown.generated_at)).toBeLessThan(60_000);
      expect(breakdown.totals).toEqual({ nodes: 5, edges: 3, templates: 7, sources: 2 });
      expect(breakdown.node_templates).toEqual([
        { template_id: person, name: 'Person', color: '#2563eb', icon: 'user', count: 4 },
        { template_id: item, name: 'Item', color: '#64748b', icon: 'circle', count: 1 },
      ]);
      expect(breakdown.edge_templates).toEqual([
        { template_id: link, name: 'Link', color: '#94a3b8', icon: 'link', count: 3 },
      ]);
      expect(breakdown.sources).toEqual([
        { source_id: 's1', title: 'Doc', node_count: 3, edge_count: 2 },
        { source_id: 's2', title: 'Extracted', node_count: 3, edge_count: 1 },
      ]);
      // Degrees: hub 3, a 1, b 1, c 1, lonely 0.
      expect(breakdown.degree).toEqual({ min: 0, max: 3, mean: 1.2, median: 1, p90: 3, isolated_nodes: 1 });
      expect(breakdown.top_hubs).toEqual([
        { id: 'hub', label: 'Hub', template_id: person, degree: 3 },
        { id: 'a', label: 'A', template_id: person, degree: 1 },
        { id: 'b', label: 'B', template_id: person, degree: 1 },
        { id: 'c', label: 'C', template_id: item, degree: 1 },
      ]);
      // A fresh snapshot queues nothing.
      const count = (await tasksOf('graph.snapshot_build')).length;
      ok(await call('GET', '/graph/snapshot'));
      expect((await tasksOf('graph.snapshot_build')).length).toBe(count);
    });

    it('does not queue a second build while one is waiting', async () => {
      await patchSettings({ workers: { operations_max_concurrent: 1 } });
      const blocker = ok<{ task_id: string }>(
        await call('POST', '/queue/tasks', { queue: 'operations', operation: 'system.sleep', data: { ms: 5000 } }),
        201,
      );
      try {
        await buildGraph(2);
        const before = (await tasksOf('graph.snapshot_build')).length;
        expect((await call('GET', '/graph/snapshot')).status).toBe(204);
        expect((await call('GET', '/graph/snapshot')).status).toBe(204);
        const [a, b] = await Promise.all([call('GET', '/graph/snapshot'), call('GET', '/graph/snapshot')]);
        expect([a.status, b.status]).toEqual([204, 204]);
        expect((await tasksOf('graph.snapshot_build')).length).toBe(before + 1);
        // An explicit refresh while that build still waits is the same build.
        const refresh = ok<{ task_id: string }>(await call('POST', '/graph/snapshot/refresh'), 202);
        expect(refresh.task_id).toBe((await tasksOf('graph.snapshot_build'))[0].task_id);
      } finally {
        await call('DELETE', `/queue/tasks/${blocker.task_id}`);
        await patchSettings({ workers: { operations_max_concurrent: 8 } });
      }
      expect((await snapshotOnceBuilt()).totals.nodes).toBe(2);
    });

    it('returns a snapshot whose node count drifted more than 10 % and rebuilds it', async () => {
      await buildGraph(10);
      expect((await call('GET', '/graph/snapshot')).status).toBe(204);
      expect((await snapshotOnceBuilt()).totals.nodes).toBe(10);

      // 10 % exactly is not stale.
      await addNode('n11');
      const builds = (await tasksOf('graph.snapshot_build')).length;
      expect(ok<Breakdown>(await call('GET', '/graph/snapshot')).totals.nodes).toBe(10);
      expect((await tasksOf('graph.snapshot_build')).length).toBe(builds);

      await addNode('n12');
      const stale = ok<Breakdown>(await call('GET', '/graph/snapshot'));
      expect(stale.totals.nodes).toBe(10);
      expect((await tasksOf('graph.snapshot_build')).length).toBe(builds + 1);
      expect((await snapshotOnceBuilt()).totals.nodes).toBe(12);
    });

    it('returns a snapshot older than an hour and rebuilds it', async () => {
      await buildGraph(3);
      expect((await call('GET', '/graph/snapshot')).status).toBe(204);
      const fresh = await snapshotOnceBuilt();
      const old = new Date(Date.now() - 3_600_000 - 60_000).toISOString();
      await db('graph_snapshots')
        .where({ id: 1 })
        .update({ generated_at: old, payload_json: JSON.stringify({ ...fresh, generated_at: old }) });
      const builds = (await tasksOf('graph.snapshot_build')).length;

      const stale = ok<Breakdown>(await call('GET', '/graph/snapshot'));
      expect(stale.generated_at).toBe(old);
      expect((await tasksOf('graph.snapshot_build')).length).toBe(builds + 1);
      const rebuilt = await snapshotOnceBuilt();
      expect(Date.parse(rebuilt.generated_at)).toBeGreaterThan(Date.parse(old) + 3_600_000);
    });

    it('POST /graph/snapshot/refresh rebuilds in the background', async () => {
      await buildGraph(2);
      const queued = ok<Record<string, unknown>>(await call('POST', '/graph/snapshot/refresh'), 202);
      expect(queued).toEqual({ task_id: expect.any(String), status: 'queued', message: expect.any(String) });
      const result = (await completedResult(queued.task_id as string)) as Record<string, unknown>;
      expect(result).toMatchObject({ node_count: 2, edge_count: 0 });
      expect(ok<Breakdown>(await call('GET', '/graph/snapshot')).totals.nodes).toBe(2);

      await addNode('n3');
      const again = ok<{ task_id: string }>(await call('POST', '/graph/snapshot/refresh'), 202);
      expect(again.task_id).not.toBe(queued.task_id);
      await completedResult(again.task_id);
      expect(ok<Breakdown>(await call('GET', '/graph/snapshot')).totals.nodes).toBe(3);
    });
  });

  describe('POST /graph/cleanup', () => {
    it('removes corrupt nodes and edges with their index entries and reports the counts', async () => {
      await addNode('good_1', { label: 'Good one' });
      await addNode('good_2', { label: 'Good two' });
      await addEdge('good_edge', 'good_1', 'good_2');
      const now = stamp();
      const node = (id: string, fields: Record<string, unknown>) => ({
        id,
        template_id: person,
        label: 'x',
        properties: '{}',
        created_at: now,
        updated_at: now,
        ...fields,
      });
      const edge = (id: string, from: string, to: string, fields: Record<string, unknown> = {}) => ({
        id,
        template_id: link,
        source_node_id: from,
        target_node_id: to,
        label: 'rel',
        properties: '{}',
        created_at: now,
        updated_at: now,
        ...fields,
      });
      await db.raw('PRAGMA foreign_keys = OFF');
      try {
        await db('graph_nodes').insert([
          node('bad_label', { label: '' }),
          node('bad_blank', { label: '   ' }),
          node('bad_template', { template_id: 'tpl_removed' }),
          node('', {}),
          node('bad_template_id', { template_id: '' }),
        ]);
        await db('graph_edges').insert([
          edge('edge_to_bad', 'good_1', 'bad_template'),
          edge('edge_dangling', 'good_1', 'node_gone'),
          edge('edge_no_template', 'good_1', 'good_2', { template_id: 'tpl_removed' }),
          edge('edge_no_label', 'good_2', 'good_1', { label: '' }),
          edge('', 'good_2', 'good_1'),
        ]);
      } finally {
        await db.raw('PRAGMA foreign_keys = ON');
      }
      // Index entries as the indexing hook writes them: keyed by the node's rowid.
      await db.raw(
        "INSERT INTO fts_nodes (rowid, node_id, label, body) SELECT rowid, id, label, '' FROM graph_nodes WHERE id IN ('good_1', 'bad_label')",
      );

      const queued = ok<Record<string, unknown>>(await call('POST', '/graph/cleanup'), 202);
      expect(queued).toEqual({
        task_id: expect.any(String),
        status: 'queued',
        operation_type: 'graph_cleanup',
        message: expect.any(String),
      });
      expect(await completedResult(queued.task_id as string)).toEqual({ nodes_removed: 5, edges_removed: 5 });
      expect((await db('graph_nodes').select('id')).map((row) => row.id).sort()).toEqual(['good_1', 'good_2']);
      expect((await db('graph_edges').select('id')).map((row) => row.id)).toEqual(['good_edge']);
      expect((await db('fts_nodes').select('node_id')).map((row) => row.node_id)).toEqual(['good_1']);

      const again = ok<{ task_id: string }>(await call('POST', '/graph/cleanup'), 202);
      expect(await completedResult(again.task_id)).toEqual({ nodes_removed: 0, edges_removed: 0 });
    });
  });

  describe('grounding', () => {
    async function people(): Promise<void> {
      await addNode('p1', { label: 'Alice Smith', properties: { city: 'Paris' } });
      await addNode('p2', { label: 'Bob', properties: { city: 'Berlin', age: 42 } });
      await addNode('p3', { label: 'Carol', properties: { note: 'Knows ALICE well' } });
      await addNode('p4', { label: 'Dave', properties: { tags: ['friend of alice'], meta: { nested: 'deep' } } });
      await addNode('i1', { label: 'Widget', template: item, properties: { definition: 'a tool' } });
    }

    it('nodes: q filters the fetched page on labels and property values, total ignores it', async () => {
      await people();
      const page1 = ok<PageOf<GroundNode>>(await call('GET', '/graph/grounding/nodes?page_size=2&q=alice'));
      expect(page1.data.map((node) => node.id)).toEqual(['p1']);
      expect(page1.pagination).toEqual({
        total: 5,
        page: 1,
        page_size: 2,
        total_pages: 3,
        has_next: true,
        has_prev: false,
      });
      const page2 = ok<PageOf<GroundNode>>(await call('GET', '/graph/grounding/nodes?page_size=2&page=2&q=ALICE'));
      expect(page2.data.map((node) => node.id)).toEqual(['p3', 'p4']);
      expect(page2.pagination.total).toBe(5);
      const page3 = ok<PageOf<GroundNode>>(await call('GET', '/graph/grounding/nodes?page_size=2&page=3&q=alice'));
      expect(page3.data).toEqual([]);
      expect(page3.pagination.has_next).toBe(false);

      const byNumber = ok<PageOf<GroundNode>>(await call('GET', '/graph/grounding/nodes?q=42'));
      expect(byNumber.data.map((node) => node.id)).toEqual(['p2']);
      const nested = ok<PageOf<GroundNode>>(await call('GET', '/graph/grounding/nodes?q=DEEP'));
      expect(nested.data.map((node) => node.id)).toEqual(['p4']);
      const all = ok<PageOf<GroundNode>>(await call('GET', '/graph/grounding/nodes'));
      expect(all.data.map((node) => node.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'i1']);
    });

    it('nodes: template_id filters before paging and counts; items are NodeResponse-shaped', async () => {
      await people();
      const items = ok<PageOf<GroundNode>>(await call('GET', `/graph/grounding/nodes?template_id=${item}`));
      expect(items.data.map((node) => node.id)).toEqual(['i1']);
      expect(items.pagination.total).toBe(1);
      const filtered = ok<PageOf<GroundNode>>(
        await call('GET', `/graph/grounding/nodes?template_id=${person}&q=widget`),
      );
      expect({ data: filtered.data, total: filtered.pagination.total }).toEqual({ data: [], total: 4 });

      const [widget] = items.data;
      expect(Object.keys(widget).sort()).toEqual(nodeKeys);
      expect(widget).toMatchObject({
        id: 'i1',
        template_id: item,
        label: 'Widget',
        properties: { definition: 'a tool' },
        position: null,
        embedding: null,
        source_id: null,
        edge_count: null,
        incoming_edge_count: null,
        outgoing_edge_count: null,
        citation_count: null,
        relationship_type_count: null,
      });
    });

    it('node detail: the node with its outgoing and incoming edges; 404 for an unknown node', async () => {
      await people();
      await addEdge('e1', 'p1', 'p2', { label: 'knows', properties: { since: 2020 } });
      await addEdge('e2', 'p1', 'p3', { label: 'likes' });
      await addEdge('e3', 'p4', 'p1', { label: 'follows' });
      await addEdge('e4', 'p2', 'p3');

      const detail = ok<{
        node: GroundNode;
        outgoing_edges: GroundEdge[];
        incoming_edges: GroundEdge[];
        total_outgoing: number;
        total_incoming: number;
      }>(await call('GET', '/graph/grounding/nodes/p1'));
      expect(detail.node).toMatchObject({ id: 'p1', label: 'Alice Smith', properties: { city: 'Paris' } });
      expect(Object.keys(detail.node).sort()).toEqual(nodeKeys);
      expect(detail.outgoing_edges.map((edge) => edge.id)).toEqual(['e1', 'e2']);
      expect(detail.incoming_edges.map((edge) => edge.id)).toEqual(['e3']);
      expect(Object.keys(detail.outgoing_edges[0]).sort()).toEqual(edgeKeys);
      expect(detail.outgoing_edges[0]).toMatchObject({
        template_id: link,
        source_node_id: 'p1',
        target_node_id: 'p2',
        label: 'knows',
        properties: { since: 2020 },
      });
      expect({ out: detail.total_outgoing, in: detail.total_incoming }).toEqual({ out: 2, in: 1 });

      const missing = await call('GET', '/graph/grounding/nodes/nope');
      expect({ status: missing.status, body: missing.body }).toEqual({
        status: 404,
        body: {
          error: 'NOT_FOUND',
          message: "node 'nope' not found",
          details: { resource_type: 'node', identifier: 'nope' },
        },
      });
    });

    it('edges: filtered by source and/or target node, a page at a time', async () => {
      await people();
      await addEdge('e1', 'p1', 'p2');
      await addEdge('e2', 'p1', 'p3');
      await addEdge('e3', 'p2', 'p3');
      await addEdge('e4', 'p4', 'p1');
      const list = (query: string) =>
        call('GET', `/graph/grounding/edges${query}`).then((result) => ok<PageOf<GroundEdge>>(result));

      const all = await list('');
      expect({ ids: all.data.map((edge) => edge.id), total: all.pagination.total }).toEqual({
        ids: ['e1', 'e2', 'e3', 'e4'],
        total: 4,
      });
      expect(Object.keys(all.data[0]).sort()).toEqual(edgeKeys);
      expect((await list('?source_node_id=p1')).data.map((edge) => edge.id)).toEqual(['e1', 'e2']);
      expect((await list('?target_node_id=p3')).data.map((edge) => edge.id)).toEqual(['e2', 'e3']);
      expect((await list('?source_node_id=p1&target_node_id=p3')).data.map((edge) => edge.id)).toEqual(['e2']);
      const paged = await list('?page_size=1&page=2&target_node_id=p3');
      expect({ ids: paged.data.map((edge) => edge.id), pagination: paged.pagination }).toEqual({
        ids: ['e3'],
        pagination: { total: 2, page: 2, page_size: 1, total_pages: 2, has_next: false, has_prev: true },
      });
    });

    describe('neighbors', () => {
      afterEach(() => patchSettings({ pagination: { max_page_size: 1000 } }));

      interface Neighbors {
        node_id: string;
        neighbors: {
          node: GroundNode;
          relationship_type: string;
          edge_id: string;
          direction: string;
          edge_properties: Record<string, unknown>;
        }[];
        total: number;
        direction: string;
      }
      const neighbors = (query: string) =>
        call('GET', `/graph/grounding/nodes/p1/neighbors${query}`).then((result) => ok<Neighbors>(result));

      beforeEach(async () => {
        await people();
        await addEdge('e1', 'p1', 'p2', { label: 'knows', properties: { since: 2020 } });
        await addEdge('e2', 'p1', 'p3', { label: 'likes' });
        await addEdge('e3', 'p4', 'p1', { label: 'follows' });
        await addEdge('e4', 'p2', 'p3');
      });

      it('both directions by default, outgoing first, with the relationship', async () => {
        const body = await neighbors('');
        expect({ node_id: body.node_id, total: body.total, direction: body.direction }).toEqual({
          node_id: 'p1',
          total: 3,
          direction: 'both',
        });
        expect(
          body.neighbors.map((entry) => [entry.node.id, entry.relationship_type, entry.edge_id, entry.direction]),
        ).toEqual([
          ['p2', 'knows', 'e1', 'outgoing'],
          ['p3', 'likes', 'e2', 'outgoing'],
          ['p4', 'follows', 'e3', 'incoming'],
        ]);
        expect(body.neighbors[0].edge_properties).toEqual({ since: 2020 });
        expect(Object.keys(body.neighbors[0].node).sort()).toEqual(nodeKeys);
        expect(body.neighbors[0].node).toMatchObject({ label: 'Bob', properties: { city: 'Berlin', age: 42 } });
      });

      it('one direction at a time', async () => {
        const outgoing = await neighbors('?direction=outgoing');
        expect({
          ids: outgoing.neighbors.map((entry) => entry.node.id),
          total: outgoing.total,
          direction: outgoing.direction,
        }).toEqual({ ids: ['p2', 'p3'], total: 2, direction: 'outgoing' });
        const incoming = await neighbors('?direction=incoming');
        expect({
          ids: incoming.neighbors.map((entry) => entry.node.id),
          total: incoming.total,
          direction: incoming.direction,
        }).toEqual({ ids: ['p4'], total: 1, direction: 'incoming' });
      });

      it('limit cuts the list (total does not change) and is capped at max_page_size', async () => {
        const one = await neighbors('?limit=1');
        expect({ ids: one.neighbors.map((entry) => entry.node.id), total: one.total }).toEqual({
          ids: ['p2'],
          total: 3,
        });
        await patchSettings({ pagination: { max_page_size: 2 } });
        const capped = await neighbors('?limit=50');
        expect({ count: capped.neighbors.length, total: capped.total }).toEqual({ count: 2, total: 3 });
      });

      it('400 for an unknown direction, 422 for limit below 1, 404 for an unknown node', async () => {
        const bad = await call('GET', '/graph/grounding/nodes/p1/neighbors?direction=sideways');
        expect(bad.status, bad.text).toBe(400);
        expect(bad.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'direction' } });
        expect((await call('GET', '/graph/grounding/nodes/p1/neighbors?limit=0')).status).toBe(422);
        const missing = await call('GET', '/graph/grounding/nodes/nope/neighbors');
        expect({ status: missing.status, error: (missing.body as { error: string }).error }).toEqual({
          status: 404,
          error: 'NOT_FOUND',
        });
      });
    });
  });
});
