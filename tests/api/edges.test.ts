import type { GraphEvent } from '@rhizome/core/graph';
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { type PageOf, isoPattern, validationIssuesOf } from '../support/api-assertions.ts';
import type { BatchResult } from '@rhizome/contracts/api/batch';
import type { GraphEdge as Edge } from '@rhizome/core/graph';
import { sleep, waitForTask } from '../support/wait.ts';

const person = 'system_template_person';
const link = 'system_template_link';
const employs = 'tpl_edges_employs';
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
const missingNode = 'node_000000000000000000000000';

describe('edges endpoints', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  const events: GraphEvent[] = [];
  let alice: string;
  let bob: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function node(label: string, sourceId?: string): Promise<string> {
    const result = await call('POST', '/nodes', { template_id: person, label, source_id: sourceId });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  async function edge(body: Record<string, unknown>): Promise<Edge> {
    const result = await call('POST', '/edges', { template_id: link, label: 'knows', ...body });
    expect(result.status, result.text).toBe(201);
    return result.body as Edge;
  }

  async function edgeCount(): Promise<number> {
    return Number((await db('graph_edges').count({ n: '*' }))[0].n);
  }

  async function insertSource(id: string): Promise<void> {
    const now = new Date().toISOString();
    await db('sources').insert({
      id,
      title: id,
      filename: `${id}.txt`,
      source_type: 'text',
      status: 'committed',
      created_at: now,
      updated_at: now,
    });
  }

  async function taskResult(taskId: string): Promise<BatchResult> {
    return (await waitForTask(call, taskId, { statuses: ['completed'], timeoutMs: 20_000 })).result as BatchResult;
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    db = (await server.platform.databases.current()).db;
    const now = new Date().toISOString();
    await db('graph_templates').insert({
      id: employs,
      name: 'Employs',
      template_type: 'edge',
      is_system: false,
      created_at: now,
      updated_at: now,
      properties: JSON.stringify([
        { name: 'since', display_name: 'Since', property_type: 'date', required: true },
        { name: 'role', display_name: 'Role', property_type: 'string', default_value: 'staff' },
      ]),
    });
    alice = await node('Alice');
    bob = await node('Bob');
    server.platform.graphEvents.subscribe((event) => events.push(event));
  });

  afterAll(() => server.stop());

  beforeEach(() => {
    events.length = 0;
  });

  describe('POST /edges', () => {
    it('creates an edge with the EdgeResponse fields and publishes edge.create', async () => {
      const result = await call('POST', '/edges', {
        template_id: employs,
        source_node_id: alice,
        target_node_id: bob,
        label: 'employs',
        properties: { since: '2021-03-01' },
      });
      expect(result.status, result.text).toBe(201);
      const created = result.body as Edge;
      expect(Object.keys(created).sort()).toEqual(edgeKeys);
      expect(created).toMatchObject({
        template_id: employs,
        source_node_id: alice,
        target_node_id: bob,
        label: 'employs',
        properties: { since: '2021-03-01', role: 'staff' },
      });
      expect(created.id).toMatch(/^edge_[0-9a-f]{24}$/);
      expect(created.created_at).toMatch(isoPattern);
      expect(created.updated_at).toBe(created.created_at);
      await sleep(20);
      expect(events).toEqual([
        { source: 'edge.create', database: 'default', payload: { entity_type: 'edge', entity_id: created.id } },
      ]);
      expect((await call('GET', `/edges/${created.id}`)).body).toEqual(created);
    });

    it('defaults properties to {} and stores source_id when the source exists', async () => {
      await insertSource('src_edge_create');
      const created = await edge({ source_node_id: alice, target_node_id: bob, source_id: 'src_edge_create' });
      expect(created.properties).toEqual({});
      expect((await db('graph_edges').where({ id: created.id }).first('source_id'))?.source_id).toBe('src_edge_create');
      const missing = await call('POST', '/edges', {
        template_id: link,
        source_node_id: alice,
        target_node_id: bob,
        label: 'x',
        source_id: 'src_missing',
      });
      expect(missing.status).toBe(404);
      expect((missing.body as { details: unknown }).details).toEqual({
        resource_type: 'source',
        identifier: 'src_missing',
      });
    });

    it('answers 404 for an unknown template, 422 for a node template, 404 naming a missing endpoint; never writes', async () => {
      const before = await edgeCount();
      const noTemplate = await call('POST', '/edges', {
        template_id: 'tpl_missing',
        source_node_id: alice,
        target_node_id: bob,
        label: 'x',
      });
      expect(noTemplate.status).toBe(404);
      expect(noTemplate.body).toEqual({
        error: 'NOT_FOUND',
        message: "template 'tpl_missing' not found",
        details: { resource_type: 'template', identifier: 'tpl_missing' },
      });

      const nodeTemplate = validationIssuesOf(
        await call('POST', '/edges', { template_id: person, source_node_id: alice, target_node_id: bob, label: 'x' }),
      );
      expect(nodeTemplate).toEqual([expect.objectContaining({ loc: ['body', 'template_id'], type: 'template_type' })]);

      const noSource = await call('POST', '/edges', {
        template_id: link,
        source_node_id: missingNode,
        target_node_id: bob,
        label: 'x',
      });
      expect(noSource.status).toBe(404);
      expect(noSource.body).toEqual({
        error: 'NOT_FOUND',
        message: `Source node '${missingNode}' not found`,
        details: { resource_type: 'node', identifier: missingNode, field: 'source_node_id' },
      });
      const noTarget = await call('POST', '/edges', {
        template_id: link,
        source_node_id: alice,
        target_node_id: missingNode,
        label: 'x',
      });
      expect(noTarget.status).toBe(404);
      expect(noTarget.body).toEqual({
        error: 'NOT_FOUND',
        message: `Target node '${missingNode}' not found`,
        details: { resource_type: 'node', identifier: missingNode, field: 'target_node_id' },
      });
      expect(await edgeCount()).toBe(before);
      await sleep(20);
      expect(events).toEqual([]);
    });

    it('validates properties against the edge template (422 naming the field) and required fields', async () => {
      const before = await edgeCount();
      const missing = validationIssuesOf(
        await call('POST', '/edges', {
          template_id: employs,
          source_node_id: alice,
          target_node_id: bob,
          label: 'employs',
        }),
      );
      expect(missing).toEqual([expect.objectContaining({ loc: ['body', 'properties', 'since'], type: 'missing' })]);
      const badDate = validationIssuesOf(
        await call('POST', '/edges', {
          template_id: employs,
          source_node_id: alice,
          target_node_id: bob,
          label: 'employs',
          properties: { since: '2021-02-30' },
        }),
      );
      expect(badDate).toEqual([expect.objectContaining({ loc: ['body', 'properties', 'since'], type: 'format' })]);
      const required = validationIssuesOf(await call('POST', '/edges', {}));
      expect(required.map((issue) => issue.loc).sort()).toEqual([
        ['body', 'label'],
        ['body', 'source_node_id'],
        ['body', 'target_node_id'],
        ['body', 'template_id'],
      ]);
      expect(
        validationIssuesOf(
          await call('POST', '/edges', { template_id: link, source_node_id: alice, target_node_id: bob, label: '  ' }),
        )[0].loc,
      ).toEqual(['body', 'label']);
      expect(await edgeCount()).toBe(before);
    });
  });

  describe('GET /edges/{edge_id}, PATCH, DELETE', () => {
    it('answers 404 for a missing edge', async () => {
      const missing = 'edge_000000000000000000000000';
      const expected = {
        error: 'NOT_FOUND',
        message: `edge '${missing}' not found`,
        details: { resource_type: 'edge', identifier: missing },
      };
      for (const [method, body] of [['GET'], ['PATCH', { label: 'x' }], ['DELETE']] as const) {
        const result = await call(method, `/edges/${missing}`, body);
        expect({ method, status: result.status, body: result.body }).toEqual({ method, status: 404, body: expected });
      }
    });

    it('PATCH changes the label and replaces the properties (validated), keeping the rest', async () => {
      const created = (
        await call('POST', '/edges', {
          template_id: employs,
          source_node_id: alice,
          target_node_id: bob,
          label: 'employs',
          properties: { since: '2020-01-01', role: 'lead', note: 'x' },
        })
      ).body as Edge;
      const result = await call('PATCH', `/edges/${created.id}`, {
        label: 'hired',
        properties: { since: '2022-05-05' },
      });
      expect(result.status, result.text).toBe(200);
      const updated = result.body as Edge;
      expect(Object.keys(updated).sort()).toEqual(edgeKeys);
      expect(updated).toMatchObject({
        id: created.id,
        label: 'hired',
        properties: { since: '2022-05-05', role: 'staff' },
        source_node_id: alice,
        target_node_id: bob,
        created_at: created.created_at,
      });
      expect(updated.properties).not.toHaveProperty('note');
      expect((await call('GET', `/edges/${created.id}`)).body).toEqual(updated);

      const labelOnly = (await call('PATCH', `/edges/${created.id}`, { label: 'employs again' })).body as Edge;
      expect(labelOnly.properties).toEqual(updated.properties);
      expect(
        validationIssuesOf(await call('PATCH', `/edges/${created.id}`, { properties: { role: 'x' } }))[0].loc,
      ).toEqual(['body', 'properties', 'since']);
      expect(((await call('GET', `/edges/${created.id}`)).body as Edge).properties).toEqual(updated.properties);
    });

    it('DELETE removes the edge and leaves its nodes', async () => {
      const created = await edge({ source_node_id: alice, target_node_id: bob });
      const result = await call('DELETE', `/edges/${created.id}`);
      expect(result.status).toBe(204);
      expect((await call('GET', `/edges/${created.id}`)).status).toBe(404);
      expect((await call('DELETE', `/edges/${created.id}`)).status).toBe(404);
      expect((await call('GET', `/nodes/${alice}`)).status).toBe(200);
      expect((await call('GET', `/nodes/${bob}`)).status).toBe(200);
    });
  });

  describe('GET /edges', () => {
    it('filters by source_node_id and repeated source_ids, minimal shape, creation order and paging', async () => {
      await insertSource('src_edges_a');
      await insertSource('src_edges_b');
      const hub = await node('Hub');
      const x = await node('X');
      const e1 = await edge({ source_node_id: hub, target_node_id: x, label: 'first', source_id: 'src_edges_a' });
      const e2 = await edge({ source_node_id: x, target_node_id: hub, label: 'second', source_id: 'src_edges_b' });
      const e3 = await edge({ source_node_id: hub, target_node_id: alice, label: 'third' });

      const ids = (result: CallResult) => (result.body as PageOf<Edge>).data.map((item) => item.id);
      const fromHub = await call('GET', `/edges?source_node_id=${hub}`);
      expect(fromHub.status).toBe(200);
      expect(ids(fromHub)).toEqual([e1.id, e3.id]);
      expect((fromHub.body as PageOf<Edge>).data[0]).toEqual(e1);
      expect(ids(await call('GET', '/edges?source_ids=src_edges_b'))).toEqual([e2.id]);
      expect(ids(await call('GET', '/edges?source_ids=src_edges_a&source_ids=src_edges_b'))).toEqual([e1.id, e2.id]);
      expect(
        ids(await call('GET', `/edges?source_ids=src_edges_a&source_ids=src_edges_b&source_node_id=${x}`)),
      ).toEqual([e2.id]);

      const minimal = await call('GET', `/edges?source_node_id=${hub}&minimal=true`);
      expect((minimal.body as PageOf<unknown>).data).toEqual([
        { id: e1.id, source_node_id: hub, target_node_id: x, label: 'first', template_id: link },
        { id: e3.id, source_node_id: hub, target_node_id: alice, label: 'third', template_id: link },
      ]);

      const page2 = await call('GET', `/edges?source_node_id=${hub}&page=2&page_size=1`);
      expect(ids(page2)).toEqual([e3.id]);
      expect((page2.body as PageOf<Edge>).pagination).toEqual({
        total: 2,
        page: 2,
        page_size: 1,
        total_pages: 2,
        has_next: false,
        has_prev: true,
      });
    });

    it('defaults to 50 per page and caps page_size at 1000', async () => {
      const plain = (await call('GET', '/edges')).body as PageOf<Edge>;
      expect(plain.pagination.page_size).toBe(50);
      expect(((await call('GET', '/edges?page_size=5000')).body as PageOf<Edge>).pagination.page_size).toBe(1000);
      expect(validationIssuesOf(await call('GET', '/edges?page_size=0'))[0].loc).toEqual(['query', 'page_size']);
    });

    it('drops the edges of a deleted node from the list', async () => {
      const gone = await node('Gone');
      const e = await edge({ source_node_id: gone, target_node_id: alice });
      expect((await call('DELETE', `/nodes/${gone}`)).status).toBe(204);
      expect((await call('GET', `/edges/${e.id}`)).status).toBe(404);
      expect(((await call('GET', `/edges?source_node_id=${gone}`)).body as PageOf<Edge>).data).toEqual([]);
    });
  });

  describe('POST /edges/batch', () => {
    it('runs in order on the operations lane; a failing middle operation does not stop later ones', async () => {
      const existing = await edge({ source_node_id: alice, target_node_id: bob, label: 'before' });
      const doomed = await edge({ source_node_id: bob, target_node_id: alice, label: 'doomed' });
      await sleep(20);
      events.length = 0;
      const before = await edgeCount();
      const result = await call('POST', '/edges/batch', {
        operations: [
          {
            operation: 'create',
            data: { template_id: link, source_node_id: alice, target_node_id: bob, label: 'batch one' },
          },
          {
            operation: 'create',
            data: { template_id: link, source_node_id: alice, target_node_id: missingNode, label: 'dangling' },
          },
          {
            operation: 'create',
            data: { template_id: person, source_node_id: alice, target_node_id: bob, label: 'node template' },
          },
          {
            operation: 'create',
            data: { template_id: employs, source_node_id: alice, target_node_id: bob, label: 'no since' },
          },
          { operation: 'update', data: { id: existing.id, label: 'after', properties: { weight: 2 } } },
          { operation: 'update', data: { id: 'edge_000000000000000000000000', label: 'nobody' } },
          { operation: 'delete', data: { id: doomed.id } },
          {
            operation: 'create',
            data: {
              template_id: employs,
              source_node_id: bob,
              target_node_id: alice,
              label: 'batch two',
              properties: { since: '2024-01-01' },
            },
          },
        ],
      });
      expect(result.status, result.text).toBe(202);
      const queued = result.body as { task_id: string; status: string; message: string };
      expect(queued).toEqual({ task_id: expect.any(String), status: 'queued', message: expect.any(String) });
      expect((await call('GET', `/queue/tasks/${queued.task_id}`)).body).toMatchObject({
        queue: 'operations',
        operation: 'graph.edges_batch',
      });

      const outcome = await taskResult(queued.task_id);
      expect(outcome.results.map(({ index, operation, success }) => `${index}:${operation}:${success}`)).toEqual([
        '0:create:true',
        '1:create:false',
        '2:create:false',
        '3:create:false',
        '4:update:true',
        '5:update:false',
        '6:delete:true',
        '7:create:true',
      ]);
      expect(outcome).toMatchObject({ succeeded: 4, failed: 4 });
      expect(outcome.results[1].error).toContain(`Target node '${missingNode}' not found`);
      expect(outcome.results[2].error).toContain('template_id');
      expect(outcome.results[3].error).toContain('since');
      expect(outcome.results[5].error).toContain('not found');

      const [first, last] = [outcome.results[0].id!, outcome.results[7].id!];
      expect(((await call('GET', `/edges/${first}`)).body as Edge).label).toBe('batch one');
      expect(((await call('GET', `/edges/${last}`)).body as Edge).properties).toEqual({
        since: '2024-01-01',
        role: 'staff',
      });
      expect((await call('GET', `/edges/${existing.id}`)).body).toMatchObject({
        label: 'after',
        properties: { weight: 2 },
      });
      expect((await call('GET', `/edges/${doomed.id}`)).status).toBe(404);
      // two created, one deleted, nothing dangling
      expect(await edgeCount()).toBe(before + 1);
      expect(await db('graph_edges').where({ target_node_id: missingNode }).count({ n: '*' })).toEqual([{ n: 0 }]);
      await sleep(20);
      expect(events).toEqual(
        [first, last].map((id) => ({
          source: 'edge.create',
          database: 'default',
          payload: { entity_type: 'edge', entity_id: id },
        })),
      );
    });

    it('refuses malformed batch bodies with 422', async () => {
      expect(validationIssuesOf(await call('POST', '/edges/batch', { operations: [] }))[0].loc).toEqual([
        'body',
        'operations',
      ]);
      expect(
        validationIssuesOf(await call('POST', '/edges/batch', { operations: [{ operation: 'merge', data: {} }] }))[0]
          .loc,
      ).toEqual(['body', 'operations', 0, 'operation']);
    });
  });

  it('documents every edge endpoint in the OpenAPI document', async () => {
    const paths = ((await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> })
      .paths;
    expect(Object.keys(paths['/edges']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/edges/batch'])).toEqual(['post']);
    expect(Object.keys(paths['/edges/{edge_id}']).sort()).toEqual(['delete', 'get', 'patch']);
  });
});
