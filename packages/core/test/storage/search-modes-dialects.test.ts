import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { insertEdges } from '../../src/graph/writes/edges.ts';
import { insertNodes } from '../../src/graph/writes/nodes.ts';
import { linkEdgeSources, linkNodeSources } from '../../src/graph/writes/provenance.ts';
import { ThreadedBuiltinEmbeddingAdapter } from '../../src/providers/embeddings/builtin/threaded.ts';
import { EmbeddingService } from '../../src/providers/embeddings/service.ts';
import { centralNodes } from '../../src/search/graph/centrality.ts';
import { graphStructure } from '../../src/search/graph/structure.ts';
import { runSearch, type SearchType } from '../../src/search/modes.ts';
import { fulltextEntries } from '../../src/search/read-model/fulltext.ts';
import { hasOrphanedVectors, storedVectorGroups } from '../../src/search/read-model/vector-identity.ts';
import { embedderIdentity, embedLackingNodes, embedLackingTemplates } from '../../src/search/reembed.ts';
import { searchTemplates } from '../../src/search/template-search.ts';
import type { SearchContext, SearchScope } from '../../src/search/types.ts';
import { updateCorpus } from '../../src/search/vectors/corpus/update.ts';
import { vectorReaders } from '../../src/search/vectors/readers.ts';
import type { Db, Dialect } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };
const everywhere: SearchScope = { sourceIds: null, templateId: null };
const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-search-models-'));
const settings = defaultSettings();
const embeddings = new EmbeddingService({
  settings: () => settings,
  adapter: (() => {
    const builtin = new ThreadedBuiltinEmbeddingAdapter({ cacheDir: modelsDir });
    return () => builtin;
  })(),
  record: () => undefined,
});

const passages: Record<string, { title: string; enabled?: boolean; chunks: string[] }> = {
  curie: {
    title: 'Marie Curie',
    chunks: [
      'Marie Curie discovered polonium and radium in her Paris laboratory.',
      'She received the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.',
    ],
  },
  darwin: {
    title: 'Charles Darwin',
    chunks: [
      'Charles Darwin sailed aboard HMS Beagle to the Galapagos Islands.',
      'His theory of natural selection explains the evolution of species over generations.',
    ],
  },
  bach: {
    title: 'Johann Sebastian Bach',
    chunks: ['Johann Sebastian Bach composed the Brandenburg Concertos and served as cantor in Leipzig.'],
  },
  archive: {
    title: 'Archive',
    enabled: false,
    chunks: ['Polonium polonium radium: an archived note on polonium samples and Nobel laboratories.'],
  },
};

const entities: { id: string; label: string; template: string; cites: string[] }[] = [
  { id: 'marie', label: 'Marie Curie', template: 'person', cites: ['curie_0', 'curie_1'] },
  { id: 'pierre', label: 'Pierre Curie', template: 'person', cites: ['curie_1'] },
  { id: 'paris', label: 'Paris', template: 'place', cites: ['curie_0'] },
  { id: 'darwin', label: 'Charles Darwin', template: 'person', cites: ['darwin_0', 'darwin_1'] },
  { id: 'beagle', label: 'HMS Beagle', template: 'ship', cites: ['darwin_0'] },
  { id: 'galapagos', label: 'Galapagos Islands', template: 'place', cites: ['darwin_0'] },
  { id: 'bach', label: 'Johann Sebastian Bach', template: 'person', cites: ['bach_0'] },
  { id: 'leipzig', label: 'Leipzig', template: 'place', cites: ['bach_0'] },
  { id: 'samples', label: 'Polonium samples', template: 'thing', cites: ['archive_0'] },
];

const relations: [string, string, string][] = [
  ['marie', 'married', 'pierre'],
  ['marie', 'worked in', 'paris'],
  ['darwin', 'sailed on', 'beagle'],
  ['beagle', 'visited', 'galapagos'],
  ['bach', 'worked in', 'leipzig'],
];

/** What each dialect's searches answered, compared across dialects at the end. */
const answers = new Map<Dialect, Map<string, string[]>>();

/** Builds the graph through the graph's writes, embeds it with the builtin embedder and its corpus model. */
async function buildKnowledge(db: Db): Promise<void> {
  await db('graph_templates').insert(
    ['person', 'place', 'ship', 'thing', 'relation'].map((id) => ({
      id,
      name: id,
      template_type: id === 'relation' ? 'edge' : 'node',
      properties: '[]',
      ...stamps,
    })),
  );
  for (const [id, source] of Object.entries(passages)) {
    await db('sources').insert({ id, title: source.title, enabled: source.enabled ?? true, ...stamps });
    await db('document_chunks').insert(
      source.chunks.map((content, index) => ({
        id: `${id}_${index}`,
        source_id: id,
        chunk_index: index,
        content,
        created_at: at,
      })),
    );
  }
  const sourceOf = (chunk: string) => chunk.slice(0, chunk.lastIndexOf('_'));
  await insertNodes(
    db,
    entities.map((entity) => ({
      id: entity.id,
      template_id: entity.template,
      label: entity.label,
      properties: {},
      name_key: entity.label.toLowerCase(),
      extracted: true,
      ...stamps,
    })),
  );
  await insertEdges(
    db,
    relations.map(([from, label, to]) => ({
      id: `${from}-${to}`,
      template_id: 'relation',
      source_node_id: from,
      target_node_id: to,
      label,
      properties: {},
      extracted: true,
      ...stamps,
    })),
  );
  await linkNodeSources(
    db,
    entities.flatMap((entity) =>
      [...new Set(entity.cites.map(sourceOf))].map((s) => ({ node_id: entity.id, source_id: s })),
    ),
  );
  await linkEdgeSources(
    db,
    relations.map(([from, , to]) => ({
      edge_id: `${from}-${to}`,
      source_id: sourceOf(entities.find((entity) => entity.id === from)!.cites[0]),
    })),
  );
  await db('source_citations').insert(
    entities.flatMap((entity) =>
      entity.cites.map((chunk) => ({
        id: `${entity.id}@${chunk}`,
        entity_uri: entity.id,
        source_id: sourceOf(chunk),
        chunk_id: chunk,
        confidence: 0.9,
        created_at: at,
      })),
    ),
  );
  const learned = await updateCorpus({
    db,
    database: 'search',
    embeddings,
    chunks: { upsert: async () => undefined, yieldingTo: (work) => work() },
    // No index file exists yet: the readers build theirs from the stored vectors.
    reindex: async () => undefined,
    waveSize: 64,
    signal: new AbortController().signal,
  });
  expect(learned).toEqual({ learned: 6, refreshed: true });
}

/**
 * Every search mode over a small graph built and embedded the same way on a SQLite file and on
 * PostgreSQL: keyword, semantic (the builtin embedder with the database's corpus model), hybrid and graph
 * find the same passages and entities, and never what a disabled source holds.
 */
describe.each(dialects)('search modes on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let context: SearchContext;
  const found = new Map<string, string[]>();
  answers.set(dialect, found);
  const search = async (type: SearchType, query: string, scope = everywhere, limit = 5) => {
    const result = await runSearch(context, type, query, scope, limit);
    const ids = result.items.map((item) => `${item.kind}:${item.id}`);
    found.set(`${type} ${query} ${JSON.stringify(scope)}`, ids);
    return { ...result, ids };
  };

  beforeAll(async () => {
    const db = await databases.open('search');
    context = { db, database: 'search', settings, embeddings };
    await buildKnowledge(db);
  }, 180_000);
  afterAll(async () => {
    await vectorReaders.close();
    await databases.close();
  });

  it('finds words by keyword, never in a disabled source', async () => {
    const polonium = await search('keyword', 'polonium');
    expect(polonium.ids[0]).toBe('chunk:curie_0');
    expect(polonium.ids.some((id) => id.includes('archive') || id === 'node:samples')).toBe(false);
    expect((await search('keyword', 'Beagle')).ids.slice(0, 2).sort()).toEqual(['chunk:darwin_0', 'node:beagle']);
    expect((await search('keyword', 'Leipzig', { sourceIds: ['curie'], templateId: null })).ids).toEqual([]);
  });

  it('finds meaning by the vectors of the builtin embedder and its corpus model', async () => {
    const evolution = await search('semantic', 'natural selection and the evolution of species');
    expect(evolution.fallback).toBeNull();
    expect(evolution.ids[0]).toBe('chunk:darwin_1');
    const radium = await search('semantic', 'radium polonium', everywhere, 8);
    expect(radium.ids).toContain('chunk:curie_0');
    expect(radium.ids.some((id) => id.includes('archive') || id === 'node:samples')).toBe(false);
    const scoped = await search('semantic', 'composer of concertos', { sourceIds: ['bach'], templateId: null });
    expect(scoped.ids[0]).toBe('chunk:bach_0');
    expect(scoped.ids.every((id) => ['chunk:bach_0', 'node:bach', 'node:leipzig'].includes(id))).toBe(true);
  });

  it('fuses keyword and vector hits in hybrid search', async () => {
    const beagle = await search('hybrid', 'the voyage of HMS Beagle');
    expect(beagle.fallback).toBeNull();
    expect(beagle.ids[0]).toBe('chunk:darwin_0');
    expect(beagle.ids.some((id) => id.includes('archive'))).toBe(false);
  });

  it('walks the graph from the entities a question names', async () => {
    const married = await search('graph', 'Whom did Marie Curie marry?', everywhere, 8);
    expect(married.ids).toEqual(expect.arrayContaining(['node:marie', 'node:pierre']));
    expect(married.ids.filter((id) => id.startsWith('chunk:')).every((id) => id.startsWith('chunk:curie_'))).toBe(true);
    expect(married.triples?.map((triple) => triple.relationship)).toContain('married');
    const darwin = await search('graph', 'Where did Charles Darwin sail?', { sourceIds: ['darwin'], templateId: null });
    expect(darwin.ids.length).toBeGreaterThan(0);
    expect(darwin.ids.every((id) => /^(node:(darwin|beagle|galapagos)|chunk:darwin_\d)$/.test(id))).toBe(true);
  });

  it('reports its indexes, and finds templates, central nodes and communities', async () => {
    const embed = (texts: string[]) => embeddings.embed(texts, { context: { database: 'search' } });
    const identity = await embedderIdentity(embeddings, embed);
    const sink = { upsert: async () => undefined, yieldingTo: <T>(work: () => Promise<T>) => work() };
    expect(await embedLackingTemplates(context.db, identity, embed, sink)).toBe(5);
    expect(await embedLackingTemplates(context.db, identity, embed, sink)).toBe(0);
    expect(
      (await embedLackingNodes(context.db, identity, embeddings, embed, sink, { keepGoing: false })).embedded,
    ).toBe(0);
    expect(await hasOrphanedVectors(context.db, identity)).toBe(false);
    expect((await storedVectorGroups(context.db)).reduce((sum, group) => sum + group.count, 0)).toBe(
      6 + entities.length + 5,
    );
    expect(await fulltextEntries(context.db)).toBe(6 + entities.length);

    const templates = await searchTemplates(context, 'ship', 3);
    expect(templates.fallback).toBeNull();
    expect(templates.templates[0].id).toBe('ship');
    found.set(
      'templates ship',
      templates.templates.map((template) => template.id),
    );

    const central = await centralNodes(context.db, 3);
    expect(central[0].id).toBe('marie');
    found.set(
      'central',
      central.map((node) => node.id),
    );
    const structure = await graphStructure(context.db, { templateIds: ['person', 'place', 'ship'] });
    expect(structure.statistics).toMatchObject({ node_count: 8, edge_count: 5, isolated_nodes: 0 });
    expect(structure.communities.map((community) => community.size)).toEqual([3, 3, 2]);
  });
});

describe('search modes on both dialects', () => {
  it('rank the same vector and graph results in the same order', () => {
    const [sqlite, postgres] = dialects.map((dialect) => answers.get(dialect)!);
    expect([sqlite.size, postgres.size]).toEqual([11, 11]);
    for (const [query, ids] of sqlite)
      if (!query.startsWith('keyword ') && !query.startsWith('hybrid '))
        expect([query, postgres.get(query)]).toEqual([query, ids]);
  });
});

afterAll(() => fs.rmSync(modelsDir, { recursive: true, force: true }));
