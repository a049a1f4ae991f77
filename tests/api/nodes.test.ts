import type { GraphEvent } from '@rhizome/core/graph';
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { type PageOf, isoPattern, validationIssuesOf } from '../support/api-assertions.ts';
import { sleep, waitForTask } from '../support/wait.ts';

interface Node {
  id: string;
  template_id: string;
  label: string;
  properties: Record<string, unknown>;
  position: { x: number; y: number } | null;
  embedding: number[] | null;
  source_id: string | null;
  created_at: string;
  updated_at: string;
  edge_count: number | null;
  incoming_edge_count: number | null;
  outgoing_edge_count: number | null;
  citation_count: number | null;
  relationship_type_count: number | null;
}

const person = 'system_template_person';
const link = 'system_template_link';
const company = 'tpl_test_company';
const employs = 'tpl_test_employs';
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
  'tags',
].sort();

describe('nodes endpoints', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  const events: GraphEvent[] = [];
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function createNode(body: Record<string, unknown>): Promise<Node> {
    const result = await call('POST', '/nodes', body);
    expect(result.status, result.text).toBe(201);
    return result.body as Node;
  }

  async function createEdge(source: string, target: string, label: string, template = link): Promise<string> {
    const result = await call('POST', '/edges', {
      template_id: template,
      source_node_id: source,
      target_node_id: target,
      label,
    });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  async function insertSource(id: string, extra: Record<string, unknown> = {}): Promise<void> {
    const now = new Date().toISOString();
    await db('sources').insert({
      id,
      title: `Title of ${id}`,
      filename: `${id}.pdf`,
      source_type: 'pdf',
      status: 'committed',
      created_at: now,
      updated_at: now,
      ...extra,
    });
  }

  /** Graph rows the tests look at, to prove that a refused write left nothing behind. */
  async function counts() {
    const [nodes, edges, fts] = await Promise.all(
      ['graph_nodes', 'graph_edges', 'fts_nodes'].map(async (table) =>
        Number((await db(table).count({ n: '*' }))[0].n),
      ),
    );
    return { nodes, edges, fts };
  }

  async function ftsLabel(nodeId: string): Promise<string | undefined> {
    return ((await db('fts_nodes').where({ node_id: nodeId }).first('label')) as { label: string } | undefined)?.label;
  }

  /** Waits for a queued task to complete and returns its result. */
  async function taskResult<T>(taskId: string): Promise<T> {
    return (await waitForTask(call, taskId, { statuses: ['completed'], timeoutMs: 20_000 })).result as T;
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    db = (await server.platform.databases.current()).db;
    const now = new Date().toISOString();
    await db('graph_templates').insert([
      {
        id: company,
        name: 'Company',
        template_type: 'node',
        description: null,
        is_system: false,
        created_at: now,
        updated_at: now,
        properties: JSON.stringify([
          { name: 'founded', display_name: 'Founded', property_type: 'integer', required: true },
          {
            name: 'status',
            display_name: 'Status',
            property_type: 'enum',
            enum_values: ['active', 'closed'],
            default_value: 'active',
          },
          { name: 'code', display_name: 'Code', property_type: 'string', validation_pattern: '^[A-Z]{3}$' },
        ]),
      },
      {
        id: employs,
        name: 'Employs',
        template_type: 'edge',
        description: null,
        is_system: false,
        created_at: now,
        updated_at: now,
        properties: JSON.stringify([{ name: 'since', display_name: 'Since', property_type: 'date', required: true }]),
      },
    ]);
    server.platform.graphEvents.subscribe((event) => events.push(event));
  });

  afterAll(() => server.stop());

  beforeEach(() => {
    events.length = 0;
  });

  describe('POST /nodes', () => {
    it('creates a node with the full NodeResponse, indexes it and publishes node.create', async () => {
      const result = await call('POST', '/nodes', {
        template_id: company,
        label: 'Acme',
        properties: { founded: 1999, code: 'ACM', extra: 'free-form' },
        position: { x: 1.5, y: -2.25 },
        embedding: [0.1, 0.2, 0.3],
      });
      expect(result.status, result.text).toBe(201);
      const node = result.body as Node;
      expect(Object.keys(node).sort()).toEqual(nodeKeys);
      expect(node).toMatchObject({
        template_id: company,
        label: 'Acme',
        position: { x: 1.5, y: -2.25 },
        embedding: [0.1, 0.2, 0.3],
        source_id: null,
        // the template's default fills the absent enum property
        properties: { founded: 1999, code: 'ACM', extra: 'free-form', status: 'active' },
        edge_count: 0,
        incoming_edge_count: 0,
        outgoing_edge_count: 0,
        citation_count: 0,
        relationship_type_count: 0,
      });
      expect(node.id).toMatch(/^node_[0-9a-f]{24}$/);
      expect(node.created_at).toMatch(isoPattern);
      expect(node.updated_at).toBe(node.created_at);
      expect(await ftsLabel(node.id)).toBe('Acme');
      expect((await db('fts_nodes').where({ node_id: node.id }).first('body')).body).toContain('free-form');
      await sleep(20);
      expect(events).toEqual([
        { source: 'node.create', database: 'default', payload: { entity_type: 'node', entity_id: node.id } },
      ]);
      const fetched = await call('GET', `/nodes/${node.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(node);
    });

    it('defaults position, embedding and properties to null / {} for a template without properties', async () => {
      const node = await createNode({ template_id: person, label: 'Ada' });
      expect(node).toMatchObject({ properties: {}, position: null, embedding: null, source_id: null });
    });

    it('answers 404 naming an unknown template and writes nothing', async () => {
      const before = await counts();
      const result = await call('POST', '/nodes', { template_id: 'tpl_missing', label: 'Ghost' });
      expect(result.status).toBe(404);
      expect(result.body).toEqual({
        error: 'NOT_FOUND',
        message: "template 'tpl_missing' not found",
        details: { resource_type: 'template', identifier: 'tpl_missing' },
      });
      expect(await counts()).toEqual(before);
      await sleep(20);
      expect(events).toEqual([]);
    });

    it('answers 422 on template_id for an edge template and writes nothing', async () => {
      const before = await counts();
      const errors = validationIssuesOf(await call('POST', '/nodes', { template_id: link, label: 'Wrong kind' }));
      expect(errors).toEqual([expect.objectContaining({ loc: ['body', 'template_id'], type: 'template_type' })]);
      expect(errors[0].msg).toContain(link);
      expect(await counts()).toEqual(before);
    });

    it('validates properties against the template: 422 naming each field, nothing written', async () => {
      const before = await counts();
      const missing = validationIssuesOf(
        await call('POST', '/nodes', { template_id: company, label: 'No founding year' }),
      );
      expect(missing).toEqual([expect.objectContaining({ loc: ['body', 'properties', 'founded'], type: 'missing' })]);

      const wrong = validationIssuesOf(
        await call('POST', '/nodes', {
          template_id: company,
          label: 'Bad',
          properties: { founded: 'nineteen', status: 'bankrupt', code: 'abc' },
        }),
      );
      expect(wrong.map((issue) => issue.loc)).toEqual([
        ['body', 'properties', 'founded'],
        ['body', 'properties', 'status'],
        ['body', 'properties', 'code'],
      ]);
      expect(wrong.map((issue) => issue.type)).toEqual(['type', 'enum', 'pattern']);
      expect(await counts()).toEqual(before);
    });

    it('requires a non-blank label and a well-formed body', async () => {
      expect(
        validationIssuesOf(await call('POST', '/nodes', { template_id: person })).map((issue) => issue.loc),
      ).toEqual([['body', 'label']]);
      expect(validationIssuesOf(await call('POST', '/nodes', { template_id: person, label: '' }))[0].loc).toEqual([
        'body',
        'label',
      ]);
      expect(validationIssuesOf(await call('POST', '/nodes', { template_id: person, label: '   ' }))[0].loc).toEqual([
        'body',
        'label',
      ]);
      expect(validationIssuesOf(await call('POST', '/nodes', { label: 'x' }))[0].loc).toEqual(['body', 'template_id']);
      expect(
        validationIssuesOf(
          await call('POST', '/nodes', { template_id: person, label: 'x', position: { x: 'left', y: 1 } }),
        )[0].loc,
      ).toEqual(['body', 'position', 'x']);
      expect(
        validationIssuesOf(await call('POST', '/nodes', { template_id: person, label: 'x', position: { x: 1 } }))[0]
          .loc,
      ).toEqual(['body', 'position', 'y']);
      expect(
        validationIssuesOf(await call('POST', '/nodes', { template_id: person, label: 'x', embedding: [0.1, 'a'] }))[0]
          .loc,
      ).toEqual(['body', 'embedding', 1]);
      expect(
        validationIssuesOf(await call('POST', '/nodes', { template_id: person, label: 'x', properties: [1] }))[0].loc,
      ).toEqual(['body', 'properties']);
    });

    it('checks source_id: 404 for an unknown source, stored when it exists', async () => {
      const before = await counts();
      const missing = await call('POST', '/nodes', { template_id: person, label: 'Sourced', source_id: 'src_missing' });
      expect(missing.status).toBe(404);
      expect((missing.body as { details: unknown }).details).toEqual({
        resource_type: 'source',
        identifier: 'src_missing',
      });
      expect(await counts()).toEqual(before);
      await insertSource('src_create');
      const node = await createNode({ template_id: person, label: 'Sourced', source_id: 'src_create' });
      expect(node.source_id).toBe('src_create');
    });
  });

  describe('GET /nodes/{node_id}, PATCH, DELETE', () => {
    it('answers 404 for a missing node on every per-node endpoint', async () => {
      const missing = 'node_000000000000000000000000';
      const expected = {
        error: 'NOT_FOUND',
        message: `node '${missing}' not found`,
        details: { resource_type: 'node', identifier: missing },
      };
      for (const [method, path, body] of [
        ['GET', `/nodes/${missing}`],
        ['PATCH', `/nodes/${missing}`, { label: 'x' }],
        ['PATCH', `/nodes/${missing}/position`, { position: { x: 1, y: 2 } }],
        ['DELETE', `/nodes/${missing}`],
        ['GET', `/nodes/${missing}/connections`],
        ['GET', `/nodes/${missing}/citations`],
      ] as const) {
        const result = await call(method, path, body);
        expect({ path, method, status: result.status, body: result.body }).toEqual({
          path,
          method,
          status: 404,
          body: expected,
        });
      }
    });

    it('PATCH replaces properties (validated, defaults filled), updates label, position, embedding and the index; no event', async () => {
      const node = await createNode({
        template_id: company,
        label: 'Old name',
        properties: { founded: 1990, code: 'OLD', status: 'closed' },
        embedding: [1],
      });
      await sleep(20);
      events.length = 0;
      const result = await call('PATCH', `/nodes/${node.id}`, {
        label: 'New name',
        properties: { founded: 2001 },
        position: { x: 3, y: 4 },
        embedding: null,
      });
      expect(result.status, result.text).toBe(200);
      const updated = result.body as Node;
      expect(Object.keys(updated).sort()).toEqual(nodeKeys);
      expect(updated).toMatchObject({
        id: node.id,
        label: 'New name',
        properties: { founded: 2001, status: 'active' },
        position: { x: 3, y: 4 },
        embedding: null,
      });
      expect(updated.properties).not.toHaveProperty('code');
      expect(updated.created_at).toBe(node.created_at);
      expect(updated.updated_at >= node.updated_at).toBe(true);
      expect((await call('GET', `/nodes/${node.id}`)).body).toEqual(updated);
      expect(await ftsLabel(node.id)).toBe('New name');
      await sleep(20);
      expect(events).toEqual([]);
    });

    it('PATCH with only a label keeps the properties; invalid properties are 422 naming the field and change nothing', async () => {
      const node = await createNode({ template_id: company, label: 'Keep', properties: { founded: 1, code: 'KEP' } });
      const relabelled = (await call('PATCH', `/nodes/${node.id}`, { label: 'Kept' })).body as Node;
      expect(relabelled.properties).toEqual(node.properties);
      const errors = validationIssuesOf(
        await call('PATCH', `/nodes/${node.id}`, { label: 'Changed', properties: { code: 'lower' } }),
      );
      expect(errors.map((issue) => issue.loc)).toEqual([
        ['body', 'properties', 'founded'],
        ['body', 'properties', 'code'],
      ]);
      expect(((await call('GET', `/nodes/${node.id}`)).body as Node).label).toBe('Kept');
      expect(validationIssuesOf(await call('PATCH', `/nodes/${node.id}`, { label: ' ' }))[0].loc).toEqual([
        'body',
        'label',
      ]);
    });

    it('PATCH template_id changes the type in place: the id, edges, sources, citations, vector and aliases stay', async () => {
      const node = await createNode({
        template_id: person,
        label: 'Acme Works',
        properties: { aliases: ['Acme'], description: 'Makes anvils.' },
        embedding: [0.5, 0.25],
      });
      const other = await createNode({ template_id: person, label: 'Wile' });
      const edge = await createEdge(other.id, node.id, 'buys_from');
      await insertSource('src_retype');
      await db('node_sources').insert({ node_id: node.id, source_id: 'src_retype' });
      await db('source_citations').insert({
        id: 'cit_retype',
        entity_uri: node.id,
        source_id: 'src_retype',
        confidence: 1,
        extraction_method: 'llm',
        created_at: new Date().toISOString(),
      });

      const result = await call('PATCH', `/nodes/${node.id}`, { template_id: company, properties: { founded: 1949 } });
      expect(result.status, result.text).toBe(200);
      expect(result.body).toMatchObject({
        id: node.id,
        template_id: company,
        label: 'Acme Works',
        properties: { founded: 1949, status: 'active' },
        embedding: [0.5, 0.25],
        edge_count: 1,
        citation_count: 1,
      });
      expect((await call('GET', `/nodes/${node.id}`)).body).toMatchObject({ template_id: company });
      expect((await call('GET', `/edges/${edge}`)).body).toMatchObject({ target_node_id: node.id });
      expect((await call('GET', `/nodes?source_ids=src_retype`)).body).toMatchObject({
        data: [{ id: node.id, template_id: company }],
      });
      expect(((await call('GET', `/nodes/${node.id}/citations`)).body as PageOf<{ id: string }>).data).toEqual([
        expect.objectContaining({ id: 'cit_retype' }),
      ]);
      expect((await call('GET', `/nodes?template_id=${person}`)).body).not.toMatchObject({
        data: expect.arrayContaining([expect.objectContaining({ id: node.id })]),
      });

      // Without properties, the node's own are kept (aliases included) and checked against the new type.
      const back = await call('PATCH', `/nodes/${node.id}`, { template_id: person });
      expect(back.status, back.text).toBe(200);
      expect(back.body).toMatchObject({ id: node.id, template_id: person, properties: { founded: 1949 } });
      const kept = await call('PATCH', `/nodes/${node.id}`, {
        template_id: person,
        properties: { aliases: ['Acme'], description: 'Makes anvils.' },
      });
      expect((kept.body as Node).properties).toEqual({ aliases: ['Acme'], description: 'Makes anvils.' });
    });

    it('PATCH template_id refuses an unknown template (404), an edge template or properties the type rejects (422), changing nothing', async () => {
      const node = await createNode({ template_id: person, label: 'Stays a person', properties: { aliases: ['SAP'] } });
      const unknown = await call('PATCH', `/nodes/${node.id}`, { template_id: 'tpl_missing' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: 'NOT_FOUND', message: expect.stringContaining('tpl_missing') });
      expect(validationIssuesOf(await call('PATCH', `/nodes/${node.id}`, { template_id: employs }))[0].loc).toEqual([
        'body',
        'template_id',
      ]);
      const lacking = validationIssuesOf(
        await call('PATCH', `/nodes/${node.id}`, { template_id: company, label: 'X' }),
      );
      expect(lacking.map((issue) => issue.loc)).toEqual([['body', 'properties', 'founded']]);
      expect((await call('GET', `/nodes/${node.id}`)).body).toEqual(node);
    });

    it('PATCH template_id refuses a type that another node referencing it does not accept (422), changing nothing', async () => {
      const staff = await call('POST', '/templates', {
        name: 'Staff member',
        template_type: 'node',
        properties: [
          {
            name: 'employer',
            display_name: 'Employer',
            property_type: 'node_reference',
            allowed_node_types: [company],
          },
        ],
      });
      expect(staff.status, staff.text).toBe(201);
      const employer = await createNode({ template_id: company, label: 'Employer Ltd', properties: { founded: 1 } });
      const worker = await createNode({
        template_id: (staff.body as { id: string }).id,
        label: 'Worker',
        properties: { employer: employer.id },
      });
      const refused = await call('PATCH', `/nodes/${employer.id}`, { template_id: person });
      const issues = validationIssuesOf(refused);
      expect(issues).toEqual([
        expect.objectContaining({ loc: ['body', 'template_id'], msg: expect.stringContaining(worker.id) }),
      ]);
      expect(issues[0].msg).toContain("'employer'");
      expect((await call('GET', `/nodes/${employer.id}`)).body).toEqual(employer);
    });

    it('PATCH /position moves the node, refreshes the index and publishes no event', async () => {
      const node = await createNode({ template_id: person, label: 'Mover' });
      await db('fts_nodes').where({ node_id: node.id }).delete();
      await sleep(20);
      events.length = 0;
      const result = await call('PATCH', `/nodes/${node.id}/position`, { position: { x: 10.5, y: 20.25 } });
      expect(result.status, result.text).toBe(200);
      expect(result.body).toMatchObject({ id: node.id, label: 'Mover', position: { x: 10.5, y: 20.25 } });
      expect(await ftsLabel(node.id)).toBe('Mover');
      await sleep(30);
      expect(events).toEqual([]);
      expect(validationIssuesOf(await call('PATCH', `/nodes/${node.id}/position`, {}))[0].loc).toEqual([
        'body',
        'position',
      ]);
      expect(
        validationIssuesOf(await call('PATCH', `/nodes/${node.id}/position`, { position: { x: 1 } }))[0].loc,
      ).toEqual(['body', 'position', 'y']);
    });

    it('DELETE removes the node, its edges, its citations and its fts_nodes row', async () => {
      const doomed = await createNode({ template_id: person, label: 'Doomed' });
      const other = await createNode({ template_id: person, label: 'Survivor' });
      const out = await createEdge(doomed.id, other.id, 'knows');
      const into = await createEdge(other.id, doomed.id, 'knows');
      await insertSource('src_delete');
      await db('source_citations').insert({
        id: 'cit_delete',
        entity_uri: doomed.id,
        source_id: 'src_delete',
        confidence: 1,
        extraction_method: 'llm',
        created_at: new Date().toISOString(),
      });
      expect(await ftsLabel(doomed.id)).toBe('Doomed');

      const result = await call('DELETE', `/nodes/${doomed.id}`);
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      expect((await call('GET', `/nodes/${doomed.id}`)).status).toBe(404);
      expect((await call('GET', `/edges/${out}`)).status).toBe(404);
      expect((await call('GET', `/edges/${into}`)).status).toBe(404);
      expect(await db('graph_edges').whereIn('id', [out, into]).count({ n: '*' })).toEqual([{ n: 0 }]);
      expect(await db('source_citations').where({ id: 'cit_delete' }).first()).toBeUndefined();
      expect(await ftsLabel(doomed.id)).toBeUndefined();
      expect(await ftsLabel(other.id)).toBe('Survivor');
      expect((await call('DELETE', `/nodes/${doomed.id}`)).status).toBe(404);
    });
  });

  describe('GET /nodes', () => {
    it('filters by template_id and by one or several repeated source_ids, paging in creation order', async () => {
      await insertSource('src_list_a');
      await insertSource('src_list_b');
      await insertSource('src_list_c');
      const a1 = await createNode({ template_id: 'system_template_concept', label: 'A1', source_id: 'src_list_a' });
      const a2 = await createNode({ template_id: 'system_template_concept', label: 'A2', source_id: 'src_list_a' });
      const b1 = await createNode({ template_id: 'system_template_location', label: 'B1', source_id: 'src_list_b' });
      await createNode({ template_id: 'system_template_location', label: 'C1', source_id: 'src_list_c' });

      const ids = (result: CallResult) => (result.body as PageOf<Node>).data.map((node) => node.id);
      const byTemplate = await call('GET', '/nodes?template_id=system_template_concept');
      expect(byTemplate.status).toBe(200);
      expect(ids(byTemplate)).toEqual([a1.id, a2.id]);
      expect((byTemplate.body as PageOf<Node>).pagination).toEqual({
        total: 2,
        page: 1,
        page_size: 50,
        total_pages: 1,
        has_next: false,
        has_prev: false,
      });

      expect(ids(await call('GET', '/nodes?source_ids=src_list_a'))).toEqual([a1.id, a2.id]);
      expect(ids(await call('GET', '/nodes?source_ids=src_list_a&source_ids=src_list_b'))).toEqual([
        a1.id,
        a2.id,
        b1.id,
      ]);
      expect(ids(await call('GET', '/nodes?source_ids=src_list_b&template_id=system_template_location'))).toEqual([
        b1.id,
      ]);
      expect(ids(await call('GET', '/nodes?source_ids=src_none'))).toEqual([]);

      const page2 = await call('GET', '/nodes?source_ids=src_list_a&source_ids=src_list_b&page=2&page_size=2');
      expect(ids(page2)).toEqual([b1.id]);
      expect((page2.body as PageOf<Node>).pagination).toEqual({
        total: 3,
        page: 2,
        page_size: 2,
        total_pages: 2,
        has_next: false,
        has_prev: true,
      });
      const full = (await call('GET', '/nodes?source_ids=src_list_a')).body as PageOf<Node>;
      expect(Object.keys(full.data[0]).sort()).toEqual(nodeKeys);
      expect(full.data[0].edge_count).toBeNull();
    });

    it('caps page_size at pagination.max_page_size and refuses bad paging values', async () => {
      const capped = await call('GET', '/nodes?page_size=5000');
      expect(capped.status).toBe(200);
      expect((capped.body as PageOf<Node>).pagination.page_size).toBe(1000);
      expect(validationIssuesOf(await call('GET', '/nodes?page=0'))[0].loc).toEqual(['query', 'page']);
      expect(validationIssuesOf(await call('GET', '/nodes?page_size=0'))[0].loc).toEqual(['query', 'page_size']);
      expect(validationIssuesOf(await call('GET', '/nodes?minimal=perhaps'))[0].loc).toEqual(['query', 'minimal']);
    });

    it('minimal=true gives only id, label, template_id, position', async () => {
      await insertSource('src_minimal');
      const node = await createNode({
        template_id: person,
        label: 'Tiny',
        source_id: 'src_minimal',
        position: { x: 1, y: 2 },
        embedding: [1, 2],
      });
      const result = await call('GET', '/nodes?minimal=true&source_ids=src_minimal');
      expect(result.status).toBe(200);
      expect((result.body as PageOf<unknown>).data).toEqual([
        { id: node.id, label: 'Tiny', template_id: person, position: { x: 1, y: 2 } },
      ]);
    });

    it('include_stats=true gives the five exact counts computed for the page', async () => {
      await insertSource('src_stats');
      const make = (label: string) => createNode({ template_id: person, label, source_id: 'src_stats' });
      const hub = await make('Hub');
      const a = await make('A');
      const b = await make('B');
      await make('Lonely');
      await createEdge(hub.id, a.id, 'knows');
      await createEdge(hub.id, b.id, 'knows');
      await createEdge(a.id, hub.id, 'admires');
      await createEdge(hub.id, hub.id, 'reflects');
      const edge = await call('POST', '/edges', {
        template_id: employs,
        source_node_id: b.id,
        target_node_id: hub.id,
        label: 'employs',
        properties: { since: '2020-01-31' },
      });
      expect(edge.status, edge.text).toBe(201);
      const now = new Date().toISOString();
      await db('source_citations').insert([
        {
          id: 'cit_stats_1',
          entity_uri: hub.id,
          source_id: 'src_stats',
          confidence: 0.9,
          extraction_method: 'llm',
          created_at: now,
        },
        {
          id: 'cit_stats_2',
          entity_uri: hub.id,
          source_id: 'src_stats',
          confidence: 0.8,
          extraction_method: 'llm',
          created_at: now,
        },
        {
          id: 'cit_stats_3',
          entity_uri: a.id,
          source_id: 'src_stats',
          confidence: 0.7,
          extraction_method: 'llm',
          created_at: now,
        },
      ]);

      const result = await call('GET', '/nodes?include_stats=true&source_ids=src_stats');
      expect(result.status).toBe(200);
      const stats = Object.fromEntries(
        (result.body as PageOf<Node>).data.map((node) => [
          node.label,
          {
            edge_count: node.edge_count,
            incoming: node.incoming_edge_count,
            outgoing: node.outgoing_edge_count,
            citations: node.citation_count,
            relationship_types: node.relationship_type_count,
          },
        ]),
      );
      expect(stats).toEqual({
        // hub: knows→A, knows→B, admires←A, employs←B and a self-loop, which is both incoming and outgoing
        Hub: { edge_count: 6, incoming: 3, outgoing: 3, citations: 2, relationship_types: 4 },
        A: { edge_count: 2, incoming: 1, outgoing: 1, citations: 1, relationship_types: 2 },
        B: { edge_count: 2, incoming: 1, outgoing: 1, citations: 0, relationship_types: 2 },
        Lonely: { edge_count: 0, incoming: 0, outgoing: 0, citations: 0, relationship_types: 0 },
      });
      const plain = (await call('GET', '/nodes?source_ids=src_stats')).body as PageOf<Node>;
      expect(
        plain.data.every(
          (node) => node.edge_count === null && node.citation_count === null && node.relationship_type_count === null,
        ),
      ).toBe(true);
    });
  });

  describe('GET /nodes/{node_id}/connections', () => {
    it('lists one item per edge with direction and the connected node degree, sorted by edge_count, label or relationship', async () => {
      const make = (label: string) => createNode({ template_id: person, label });
      const center = await make('Center');
      const [zed, amy, bob] = [await make('Zed'), await make('Amy'), await make('Bob')];
      const far = await make('Far');
      await createEdge(center.id, zed.id, 'mentors');
      await createEdge(amy.id, center.id, 'follows');
      await createEdge(center.id, bob.id, 'employs');
      await createEdge(bob.id, center.id, 'advises');
      await createEdge(zed.id, far.id, 'x');
      await createEdge(far.id, zed.id, 'y');

      const result = await call('GET', `/nodes/${center.id}/connections`);
      expect(result.status).toBe(200);
      const page = result.body as PageOf<Record<string, unknown>>;
      expect(page.pagination).toEqual({
        total: 4,
        page: 1,
        page_size: 50,
        total_pages: 1,
        has_next: false,
        has_prev: false,
      });
      expect(page.data).toEqual([
        {
          id: zed.id,
          label: 'Zed',
          template_id: person,
          edge_count: 3,
          relationship: 'mentors',
          direction: 'outgoing',
        },
        {
          id: bob.id,
          label: 'Bob',
          template_id: person,
          edge_count: 2,
          relationship: 'advises',
          direction: 'incoming',
        },
        {
          id: bob.id,
          label: 'Bob',
          template_id: person,
          edge_count: 2,
          relationship: 'employs',
          direction: 'outgoing',
        },
        {
          id: amy.id,
          label: 'Amy',
          template_id: person,
          edge_count: 1,
          relationship: 'follows',
          direction: 'incoming',
        },
      ]);

      const order = async (query: string) =>
        (
          (await call('GET', `/nodes/${center.id}/connections?${query}`)).body as PageOf<{
            label: string;
            relationship: string;
          }>
        ).data.map((item) => `${item.label}:${item.relationship}`);
      expect(await order('sort_by=edge_count')).toEqual(['Zed:mentors', 'Bob:advises', 'Bob:employs', 'Amy:follows']);
      expect(await order('sort_by=label')).toEqual(['Amy:follows', 'Bob:advises', 'Bob:employs', 'Zed:mentors']);
      expect(await order('sort_by=relationship')).toEqual(['Bob:advises', 'Bob:employs', 'Amy:follows', 'Zed:mentors']);
      expect(await order('sort_by=label&page=2&page_size=3')).toEqual(['Zed:mentors']);
      const paged = (await call('GET', `/nodes/${center.id}/connections?page=2&page_size=3`)).body as PageOf<unknown>;
      expect(paged.pagination).toEqual({
        total: 4,
        page: 2,
        page_size: 3,
        total_pages: 2,
        has_next: false,
        has_prev: true,
      });
      expect(
        validationIssuesOf(await call('GET', `/nodes/${center.id}/connections?sort_by=importance`))[0].loc,
      ).toEqual(['query', 'sort_by']);

      const far2 = (await call('GET', `/nodes/${amy.id}/connections`)).body as PageOf<Record<string, unknown>>;
      expect(far2.data).toEqual([
        {
          id: center.id,
          label: 'Center',
          template_id: person,
          edge_count: 4,
          relationship: 'follows',
          direction: 'outgoing',
        },
      ]);
      // a self-loop is one connection (outgoing) and counts twice in the degree, as incoming and outgoing
      const looper = await make('Looper');
      await createEdge(looper.id, looper.id, 'self');
      expect(((await call('GET', `/nodes/${looper.id}/connections`)).body as PageOf<unknown>).data).toEqual([
        {
          id: looper.id,
          label: 'Looper',
          template_id: person,
          edge_count: 2,
          relationship: 'self',
          direction: 'outgoing',
        },
      ]);
      const none = (await call('GET', `/nodes/${(await make('Alone')).id}/connections`)).body as PageOf<unknown>;
      expect(none).toEqual({
        data: [],
        pagination: { total: 0, page: 1, page_size: 50, total_pages: 0, has_next: false, has_prev: false },
      });
    });
  });

  describe('GET /nodes/{node_id}/citations', () => {
    it('is empty until citations exist, then lists them in the documented shape, page size capped at 100', async () => {
      const node = await createNode({ template_id: person, label: 'Cited' });
      const empty = await call('GET', `/nodes/${node.id}/citations`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        data: [],
        pagination: { total: 0, page: 1, page_size: 50, total_pages: 0, has_next: false, has_prev: false },
      });

      await insertSource('src_cite', {
        title: 'A paper',
        source_type: 'webpage',
        origin_url: 'https://example.org/paper',
      });
      const now = new Date().toISOString();
      await db('document_chunks').insert({
        id: 'chunk_cite',
        source_id: 'src_cite',
        chunk_index: 0,
        content: 'Cited wrote a paper.',
        page_number: 3,
        section: 'Intro',
        chunk_metadata: JSON.stringify({ sentence_offsets: [[0, 20]] }),
        created_at: now,
      });
      await db('source_citations').insert({
        id: 'cit_1',
        entity_uri: node.id,
        source_id: 'src_cite',
        chunk_id: 'chunk_cite',
        confidence: 0.87,
        extraction_method: 'llm',
        context_snippet: 'Cited wrote',
        citation_metadata: JSON.stringify({ sent_ref: 'S1' }),
        created_at: now,
      });
      const result = await call('GET', `/nodes/${node.id}/citations?page_size=500`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        data: [
          {
            id: 'cit_1',
            source: {
              id: 'src_cite',
              title: 'A paper',
              source_type: 'webpage',
              origin_url: 'https://example.org/paper',
            },
            chunk: {
              id: 'chunk_cite',
              content: 'Cited wrote a paper.',
              page_number: 3,
              section: 'Intro',
              chunk_metadata: { sentence_offsets: [[0, 20]] },
            },
            confidence: 0.87,
            extraction_method: 'llm',
            context_snippet: 'Cited wrote',
            citation_metadata: { sent_ref: 'S1' },
            created_at: now,
          },
        ],
        pagination: { total: 1, page: 1, page_size: 100, total_pages: 1, has_next: false, has_prev: false },
      });
    });
  });

  describe('POST /nodes/batch', () => {
    it('queues on the operations lane and runs in order; a failing middle operation does not stop later ones', async () => {
      const existing = await createNode({ template_id: person, label: 'Before batch' });
      await sleep(20);
      events.length = 0;
      const result = await call('POST', '/nodes/batch', {
        operations: [
          { operation: 'create', data: { template_id: company, label: 'Batch one', properties: { founded: 2010 } } },
          { operation: 'create', data: { template_id: company, label: 'Batch bad', properties: { founded: 'soon' } } },
          { operation: 'create', data: { template_id: 'tpl_missing', label: 'Batch no template' } },
          { operation: 'update', data: { id: existing.id, label: 'Renamed by batch' } },
          { operation: 'delete', data: { id: 'node_000000000000000000000000' } },
          { operation: 'create', data: { label: 'No template id' } },
          { operation: 'create', data: { template_id: person, label: 'Batch two', position: { x: 1, y: 1 } } },
          { operation: 'delete', data: { id: existing.id } },
        ],
      });
      expect(result.status, result.text).toBe(202);
      const queued = result.body as { task_id: string; status: string; message: string };
      expect(queued).toEqual({ task_id: expect.any(String), status: 'queued', message: expect.any(String) });
      const task = (await call('GET', `/queue/tasks/${queued.task_id}`)).body as {
        queue: string;
        operation: string;
        metadata: Record<string, unknown>;
      };
      expect(task).toMatchObject({
        queue: 'operations',
        operation: 'graph.nodes_batch',
        metadata: { database: 'default' },
      });

      const outcome = await taskResult<{
        results: { index: number; operation: string; success: boolean; id?: string; error?: string }[];
        succeeded: number;
        failed: number;
      }>(queued.task_id);
      expect(outcome.results.map(({ index, operation, success }) => ({ index, operation, success }))).toEqual([
        { index: 0, operation: 'create', success: true },
        { index: 1, operation: 'create', success: false },
        { index: 2, operation: 'create', success: false },
        { index: 3, operation: 'update', success: true },
        { index: 4, operation: 'delete', success: false },
        { index: 5, operation: 'create', success: false },
        { index: 6, operation: 'create', success: true },
        { index: 7, operation: 'delete', success: true },
      ]);
      expect(outcome).toMatchObject({ succeeded: 4, failed: 4 });
      expect(outcome.results[1].error).toContain('founded');
      expect(outcome.results[2].error).toContain("template 'tpl_missing' not found");
      expect(outcome.results[4]).toMatchObject({
        id: 'node_000000000000000000000000',
        error: expect.stringContaining('not found'),
      });
      expect(outcome.results[5].error).toContain('template_id');
      expect(outcome.results[3].id).toBe(existing.id);

      const [first, second] = [outcome.results[0].id!, outcome.results[6].id!];
      expect(first).toMatch(/^node_[0-9a-f]{24}$/);
      expect(((await call('GET', `/nodes/${first}`)).body as Node).properties).toEqual({
        founded: 2010,
        status: 'active',
      });
      expect(((await call('GET', `/nodes/${second}`)).body as Node).position).toEqual({ x: 1, y: 1 });
      expect(await ftsLabel(first)).toBe('Batch one');
      expect(await ftsLabel(second)).toBe('Batch two');
      expect((await call('GET', `/nodes/${existing.id}`)).status).toBe(404);
      expect(await ftsLabel(existing.id)).toBeUndefined();
      expect(
        await db('graph_nodes')
          .whereIn('label', ['Batch bad', 'Batch no template', 'No template id'])
          .count({ n: '*' }),
      ).toEqual([{ n: 0 }]);
      await sleep(20);
      expect(events.map((event) => event.payload.entity_id)).toEqual([first, second]);
      expect(events.every((event) => event.source === 'node.create' && event.payload.entity_type === 'node')).toBe(
        true,
      );
    });

    it('lets a create reference a node created earlier in the same batch', async () => {
      const now = new Date().toISOString();
      await db('graph_templates').insert({
        id: 'tpl_test_child',
        name: 'Child',
        template_type: 'node',
        is_system: false,
        created_at: now,
        updated_at: now,
        properties: JSON.stringify([
          {
            name: 'parent',
            display_name: 'Parent',
            property_type: 'node_reference',
            required: true,
            allowed_node_types: [company],
          },
        ]),
      });
      const parent = await createNode({ template_id: company, label: 'Parent', properties: { founded: 1 } });
      const result = await call('POST', '/nodes/batch', {
        operations: [
          {
            operation: 'create',
            data: { template_id: 'tpl_test_child', label: 'Good child', properties: { parent: parent.id } },
          },
          {
            operation: 'create',
            data: { template_id: 'tpl_test_child', label: 'Orphan', properties: { parent: 'node_nope' } },
          },
          {
            operation: 'create',
            data: {
              template_id: 'tpl_test_child',
              label: 'Wrong parent type',
              properties: { parent: (await createNode({ template_id: person, label: 'P' })).id },
            },
          },
        ],
      });
      expect(result.status).toBe(202);
      const outcome = await taskResult<{ results: { success: boolean; error?: string }[] }>(
        (result.body as { task_id: string }).task_id,
      );
      expect(outcome.results.map((entry) => entry.success)).toEqual([true, false, false]);
      expect(outcome.results[1].error).toContain('node_nope');
    });

    it('refuses an empty list, more than 10,000 operations and unknown operation names with 422', async () => {
      expect(validationIssuesOf(await call('POST', '/nodes/batch', { operations: [] }))[0].loc).toEqual([
        'body',
        'operations',
      ]);
      expect(validationIssuesOf(await call('POST', '/nodes/batch', {}))[0].loc).toEqual(['body', 'operations']);
      expect(
        validationIssuesOf(await call('POST', '/nodes/batch', { operations: [{ operation: 'upsert', data: {} }] }))[0]
          .loc,
      ).toEqual(['body', 'operations', 0, 'operation']);
      expect(
        validationIssuesOf(await call('POST', '/nodes/batch', { operations: [{ operation: 'create' }] }))[0].loc,
      ).toEqual(['body', 'operations', 0, 'data']);
      const tooMany = Array.from({ length: 10_001 }, () => ({ operation: 'delete', data: { id: 'x' } }));
      expect(validationIssuesOf(await call('POST', '/nodes/batch', { operations: tooMany }))[0].loc).toEqual([
        'body',
        'operations',
      ]);
    });
  });

  it('documents every node endpoint in the OpenAPI document', async () => {
    const paths = ((await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> })
      .paths;
    expect(Object.keys(paths['/nodes']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/nodes/batch'])).toEqual(['post']);
    expect(Object.keys(paths['/nodes/{node_id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(paths['/nodes/{node_id}/position'])).toEqual(['patch']);
    expect(Object.keys(paths['/nodes/{node_id}/connections'])).toEqual(['get']);
    expect(Object.keys(paths['/nodes/{node_id}/citations'])).toEqual(['get']);
  });
});
