import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import { indexNewNodes } from '@rhizome/core/graph';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

interface SearchBody {
  data: SearchResultBody[];
  type: string;
  fallback: string | null;
  triples?: unknown[];
}

const person = 'system_template_person';
const concept = 'system_template_concept';
const organization = 'system_template_organization';

const gardenText = [
  'The heliotrope garden behind the old observatory is tended by volunteers every spring.',
  'Visitors note the vanilla scent of heliotrope flowers and the zanzibarite paving stones along the paths.',
].join('\n\n');
const marshText = [
  'A quokka colony was introduced to the marsh island as part of a conservation experiment.',
  'Rangers planted heliotrope along the shore to attract pollinators to the quokka enclosure.',
].join('\n\n');

describe('GET /search (keyword)', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  let garden: SourceResponseBody;
  let marsh: SourceResponseBody;
  const nodes: Record<string, string> = {};
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  const search = async (params: Record<string, string | string[]>): Promise<CallResult> => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params))
      for (const one of Array.isArray(value) ? value : [value]) query.append(key, one);
    return call('GET', `/search?${query.toString()}`);
  };
  const ok = async (params: Record<string, string | string[]>): Promise<SearchBody> => {
    const result = await search(params);
    expect(result.status, result.text).toBe(200);
    return result.body as SearchBody;
  };
  const nodeIds = (body: SearchBody) =>
    body.data.filter((hit) => hit.result_type === 'node').map((hit) => hit.node!.id);
  const chunkSources = (body: SearchBody) =>
    [...new Set(body.data.filter((hit) => hit.result_type === 'chunk').map((hit) => hit.chunk!.source_id))].sort();

  async function createNode(
    template_id: string,
    label: string,
    properties: Record<string, unknown> = {},
  ): Promise<string> {
    const result = await call('POST', '/nodes', { template_id, label, properties });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  async function uploadText(name: string, content: string): Promise<SourceResponseBody> {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      extract_entities: 'false',
      auto_confirm: 'true',
    });
    expect(accepted.status, accepted.text).toBe(202);
    return waitForSource(server, cookie, (accepted.body as SourceResponseBody).id, ['indexed', 'error']);
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    db = (await server.platform.databases.current()).db;
    nodes.label = await createNode(concept, 'Heliotrope');
    nodes.mention = await createNode(person, 'Ada Gardener', {
      notes: 'grows heliotrope in the greenhouse next to the ferns and the orchids',
    });
    nodes.society = await createNode(organization, 'Heliotrope Society');
    nodes.unrelated = await createNode(concept, 'Photosynthesis');
    const edge = await call('POST', '/edges', {
      template_id: 'system_template_link',
      source_node_id: nodes.mention,
      target_node_id: nodes.society,
      label: 'member of',
    });
    expect(edge.status, edge.text).toBe(201);
    garden = await uploadText('garden.txt', gardenText);
    marsh = await uploadText('marsh.txt', marshText);
    expect([garden.status, marsh.status]).toEqual(['indexed', 'indexed']);
  });
  afterAll(() => server.stop());

  it('ranks a node named by the query above one that mentions it, and finds chunks, in the documented shape', async () => {
    const body = await ok({ q: 'heliotrope' });
    expect(body.type).toBe('keyword');
    expect(body.fallback).toBeNull();
    expect(body.triples).toBeUndefined();
    const ids = nodeIds(body);
    expect(ids).toEqual(expect.arrayContaining([nodes.label, nodes.mention, nodes.society]));
    expect(ids).not.toContain(nodes.unrelated);
    expect(ids.indexOf(nodes.label)).toBeLessThan(ids.indexOf(nodes.mention));
    expect(ids.indexOf(nodes.society)).toBeLessThan(ids.indexOf(nodes.mention));
    expect(chunkSources(body)).toEqual([garden.id, marsh.id].sort());

    const scores = body.data.map((hit) => hit.score);
    expect(scores.every((score) => score > 0 && score <= 1)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const hit of body.data) {
      expect(Object.keys(hit).sort()).toEqual(['chunk', 'node', 'result_type', 'score']);
      if (hit.result_type === 'node') expect(hit.chunk).toBeNull();
      else expect(hit.node).toBeNull();
    }
    const society = body.data.find((hit) => hit.node?.id === nodes.society)!.node!;
    expect(society).toEqual({
      id: nodes.society,
      label: 'Heliotrope Society',
      template_id: organization,
      edge_count: 1,
    });
    const chunk = body.data.find((hit) => hit.chunk?.source_id === garden.id)!.chunk!;
    expect(Object.keys(chunk).sort()).toEqual([
      'chunk_id',
      'chunk_index',
      'content',
      'filename',
      'page_number',
      'section',
      'source_id',
    ]);
    expect(chunk).toMatchObject({ filename: 'garden.txt', chunk_index: expect.any(Number) });
    expect(chunk.content.toLowerCase()).toContain('heliotrope');
  });

  it('searches chunk text by keyword, phrases and prefixes', async () => {
    const stones = await ok({ q: 'zanzibarite' });
    expect(stones.data.map((hit) => hit.result_type)).toEqual(['chunk']);
    expect(stones.data[0].chunk!.source_id).toBe(garden.id);
    // Stemming: "flowers" finds "flower".
    expect(chunkSources(await ok({ q: 'flower' }))).toEqual([garden.id]);
    expect(nodeIds(await ok({ q: '"heliotrope society"' }))).toEqual([nodes.society]);
    expect(nodeIds(await ok({ q: '"society heliotrope"' }))).toEqual([]);
    expect(nodeIds(await ok({ q: 'photosynth*' }))).toEqual([nodes.unrelated]);
  });

  it('ANDs the terms, and falls back to any term when nothing has them all', async () => {
    const both = await ok({ q: 'heliotrope quokka' });
    expect(both.fallback).toBeNull();
    expect(chunkSources(both)).toEqual([marsh.id]);
    expect(nodeIds(both)).toEqual([]);
    const relaxed = await ok({ q: 'heliotrope xylophonist' });
    expect(relaxed.fallback).toMatch(/any_term/);
    expect(nodeIds(relaxed)).toContain(nodes.label);
    const none = await ok({ q: 'xylophonist' });
    expect(none).toEqual({ data: [], type: 'keyword', fallback: null });
  });

  it('filters by source_ids (comma-separated or repeated) and template_id', async () => {
    const one = await ok({ q: 'heliotrope', source_ids: garden.id });
    expect(chunkSources(one)).toEqual([garden.id]);
    // Hand-made nodes belong to no source, so a source scope leaves them out.
    expect(nodeIds(one)).toEqual([]);
    expect(chunkSources(await ok({ q: 'heliotrope', source_ids: `${garden.id}, ${marsh.id}` }))).toEqual(
      [garden.id, marsh.id].sort(),
    );
    expect(chunkSources(await ok({ q: 'heliotrope', source_ids: [garden.id, marsh.id] }))).toEqual(
      [garden.id, marsh.id].sort(),
    );
    expect((await ok({ q: 'heliotrope', source_ids: 'src_missing' })).data).toEqual([]);

    const people = await ok({ q: 'heliotrope', template_id: person });
    expect(people.data.map((hit) => hit.node?.id)).toEqual([nodes.mention]);
    expect((await ok({ q: 'heliotrope', template_id: 'tpl_missing' })).data).toEqual([]);
  });

  it('leaves out chunks of disabled sources, and nodes whose every source is disabled', async () => {
    // Nodes as extraction writes them: owned through node_sources.
    await db('node_sources').insert([
      { node_id: nodes.unrelated, source_id: marsh.id },
      { node_id: nodes.society, source_id: marsh.id },
      { node_id: nodes.society, source_id: garden.id },
    ]);
    expect(nodeIds(await ok({ q: 'photosynthesis', source_ids: marsh.id }))).toEqual([nodes.unrelated]);
    expect(nodeIds(await ok({ q: 'heliotrope', source_ids: marsh.id }))).toEqual([nodes.society]);

    const disabled = await call('PATCH', `/sources/${marsh.id}`, { enabled: false });
    expect(disabled.status, disabled.text).toBe(200);
    try {
      expect((await ok({ q: 'quokka' })).data).toEqual([]);
      const body = await ok({ q: 'heliotrope' });
      expect(chunkSources(body)).toEqual([garden.id]);
      // Still contributed by the enabled garden source; the hand-made ones stay.
      expect(nodeIds(body)).toEqual(expect.arrayContaining([nodes.label, nodes.mention, nodes.society]));
      expect(nodeIds(await ok({ q: 'photosynthesis' }))).toEqual([]);
      expect((await ok({ q: 'heliotrope', source_ids: marsh.id })).data).toEqual([]);
    } finally {
      await call('PATCH', `/sources/${marsh.id}`, { enabled: true });
      await db('node_sources').whereIn('node_id', [nodes.unrelated, nodes.society]).delete();
    }
    expect(chunkSources(await ok({ q: 'quokka' }))).toEqual([marsh.id]);
  });

  it('defaults the limit to 50 and clamps a larger one to 1000', async () => {
    const at = new Date().toISOString();
    const bulk = Array.from({ length: 1100 }, (_, index) => ({
      id: `node_bulk_${index}`,
      label: `Bulkword ${index}`,
      properties: {},
    }));
    await db.transaction(async (trx) => {
      for (let start = 0; start < bulk.length; start += 200) {
        await trx('graph_nodes').insert(
          bulk.slice(start, start + 200).map((node) => ({
            id: node.id,
            template_id: concept,
            label: node.label,
            properties: '{}',
            created_at: at,
            updated_at: at,
          })),
        );
      }
      await indexNewNodes(trx, bulk);
    });
    expect((await ok({ q: 'bulkword' })).data).toHaveLength(50);
    expect((await ok({ q: 'bulkword', limit: '7' })).data).toHaveLength(7);
    expect((await ok({ q: 'bulkword', limit: '5000' })).data).toHaveLength(1000);
    expect(validationIssuesOf(await search({ q: 'bulkword', limit: '0' })).map((issue) => issue.loc)).toContainEqual([
      'query',
      'limit',
    ]);
    expect(validationIssuesOf(await search({ q: 'bulkword', limit: 'many' })).map((issue) => issue.loc)).toContainEqual(
      ['query', 'limit'],
    );
  });

  it('answers 200 to hostile query strings, and the data survives them', async () => {
    const hostile = [
      '"unbalanced',
      'unbalanced"',
      '"""',
      'AND OR NOT',
      'NOT',
      'OR heliotrope',
      'heliotrope NOT',
      'NEAR(',
      'NEAR(heliotrope quokka, 2)',
      'label:x',
      'label:heliotrope',
      '{label body}:heliotrope',
      '*',
      'heliotrope*',
      'h*',
      '(',
      ')',
      '^heliotrope',
      '-heliotrope',
      '+',
      '😀',
      '😀 heliotrope 🌸',
      '\u0000',
      '\u0007\u001b[31m',
      "'; DROP TABLE graph_nodes; --",
      "heliotrope' OR '1'='1",
      '" OR 1=1 --',
      'x" OR "1"="1',
      'heliotrope; DELETE FROM sources',
      '%',
      '_',
      '\\',
      '',
      ' ',
      'lorem ipsum '.repeat(900),
    ];
    for (const q of hostile) {
      const body = await ok({ q });
      expect(Array.isArray(body.data), JSON.stringify(q)).toBe(true);
    }
    expect((await ok({ q: 'label:heliotrope' })).data.length).toBeGreaterThan(0);
    expect(nodeIds(await ok({ q: 'heliotrope' }))).toContain(nodes.label);
    expect(Number((await db('sources').count({ n: '*' }))[0].n)).toBe(2);
  });

  it('refuses a missing q and an unknown search_type with 422', async () => {
    expect(validationIssuesOf(await search({})).map((issue) => issue.loc)).toContainEqual(['query', 'q']);
    expect(
      validationIssuesOf(await search({ q: 'heliotrope', search_type: 'psychic' })).map((issue) => issue.loc),
    ).toContainEqual(['query', 'search_type']);
    expect((await ok({ q: 'heliotrope', search_type: 'keyword' })).type).toBe('keyword');
  });

  it('is documented in the OpenAPI document', async () => {
    const document = (await call('GET', '/openapi.json')).body as {
      paths: Record<string, { get?: { parameters: { name: string }[] } }>;
    };
    expect(document.paths['/search'].get!.parameters.map((parameter) => parameter.name).sort()).toEqual([
      'limit',
      'q',
      'search_type',
      'source_ids',
      'template_id',
    ]);
  });
});
