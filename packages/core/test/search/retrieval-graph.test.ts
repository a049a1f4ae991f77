import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGraphSearch, graphAdjacency, passageGraph, readGraphVersion } from '../../src/search/graph/index.ts';
import { linkEntities, nameSpans } from '../../src/search/graph/link.ts';
import type { SearchScope } from '../../src/search/types.ts';
import { addChunk, addNode, at, openTestDatabase, testContext, testDeps, type TestDatabase } from './graph-support.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };

/** The passages-and-entities graph of graph search: entity linking, title links, the second hop. */
describe('retrieval graph', () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await openTestDatabase('rhizome-retrieval-graph-');
  });
  afterEach(() => t.close());

  const source = (id: string, title: string) =>
    t.db('sources').insert({ id, title, filename: title, enabled: true, created_at: at, updated_at: at });
  const extracted = async (id: string, label: string, sources: string[]) => {
    await addNode(t.db, id, label, { sources });
    await t.db('graph_nodes').where({ id }).update({ name_key: label.toLowerCase(), extracted: true });
  };

  it('links the names a query spells with capitals, longest first, and every run of words in a query without capitals', async () => {
    await source('s1', 'notes.txt');
    await extracted('curie', 'Marie Curie', ['s1']);
    await extracted('surname', 'Curie', ['s1']);
    await extracted('wife', 'wife', ['s1']);
    await extracted('lambert', 'Lambert, Margrave of Tuscany', ['s1']);
    const ids = async (query: string) => (await linkEntities(t.db, query)).map((entity) => entity.id).sort();
    expect(await ids("Who was Marie Curie's wife?")).toEqual(['curie']);
    expect(await ids('marie curie wife')).toEqual(['curie', 'wife']);
    expect(await ids('When did Lambert, Margrave Of Tuscany die?')).toEqual(['lambert']);
    expect(await ids('Where was Pierre born?')).toEqual([]);
    expect(nameSpans('"Quoted Name" said')[0].keys).toEqual(['Quoted']);
  });

  it('reaches the source a passage names by its title, which no entity cites and keyword search misses', async () => {
    await source('film', 'Madame X.txt');
    await source('lloyd', 'Frank Lloyd.txt');
    await extracted('madame', 'Madame X', ['film']);
    // Extraction missed the director in the film's passage, and named him in full in his own.
    await extracted('full', 'Frank William George Lloyd', ['lloyd']);
    await addChunk(t.db, 'cf', 'film', 'Madame X is a 1916 silent film directed by Frank Lloyd.', ['madame']);
    await addChunk(
      t.db,
      'cl',
      'lloyd',
      'Frank William George Lloyd, 1886 – 1960, Australian screenwriter and producer.',
      ['full'],
    );
    const query = 'Where was the director of film Madame X born?';
    const terms = ['where', 'was', 'the', 'director', 'of', 'film', 'madame', 'x', 'born']
      .map((term) => `"${term}"`)
      .join(' OR ');
    const keyword = (await t.db.raw(
      'SELECT d.id FROM fts_chunks f JOIN document_chunks d ON d.rowid = f.rowid WHERE fts_chunks MATCH ?',
      [terms],
    )) as { id: string }[];
    expect(keyword.map((row) => row.id)).toEqual(['cf']);

    const search = createGraphSearch(testDeps);
    const found = await search(testContext(t.db), query, everywhere, 10);
    expect(found.fallback).toBeNull();
    expect(found.items.filter((item) => item.kind === 'chunk').map((item) => item.id)).toEqual(['cf', 'cl']);
    expect(found.items.every((item) => item.score > 0 && item.score <= 1)).toBe(true);

    // Without the title there is no way from the film to him.
    await t
      .db('sources')
      .where({ id: 'lloyd' })
      .update({ title: 'notes.txt', filename: 'notes.txt', updated_at: 'later' });
    const untitled = await search(testContext(t.db), query, everywhere, 10);
    expect(untitled.items.map((item) => item.id)).not.toContain('cl');
  });

  it('follows entity mentions between passages, weighting a hub entity by its specificity, and sees a new citation at once', async () => {
    await source('s1', 'a.txt');
    await source('s2', 'b.txt');
    await source('s3', 'c.txt');
    await extracted('ada', 'Ada Lovelace', ['s1']);
    await extracted('babbage', 'Charles Babbage', ['s1', 's2']);
    await addChunk(t.db, 'c1', 's1', 'Ada Lovelace corresponded with Charles Babbage.', ['ada', 'babbage']);
    await addChunk(t.db, 'c2', 's2', 'The Difference Engine was designed by Charles Babbage in 1822.', ['babbage']);
    await addChunk(t.db, 'c3', 's3', 'Jacquard looms wove patterns from punched cards.', []);
    const search = createGraphSearch(testDeps);
    const query = 'Who did Ada Lovelace write to?';
    const first = await search(testContext(t.db), query, everywhere, 10);
    expect(first.items.filter((item) => item.kind === 'chunk').map((item) => item.id)).toEqual(['c1', 'c2']);

    const version = await readGraphVersion(t.db);
    const graph = await passageGraph(t.db, await graphAdjacency(t.db, version), version);
    expect(graph.entityPassages[graph.entities.index.get('babbage')!]).toBe(2);
    await t.db('source_citations').insert({
      id: 'c3:babbage',
      entity_uri: 'babbage',
      source_id: 's3',
      chunk_id: 'c3',
      confidence: 0.9,
      created_at: at,
    });
    const later = await readGraphVersion(t.db);
    const rebuilt = await passageGraph(t.db, await graphAdjacency(t.db, later), later);
    expect(rebuilt).not.toBe(graph);
    expect(rebuilt.entityPassages[rebuilt.entities.index.get('babbage')!]).toBe(3);
    const second = await search(testContext(t.db), query, everywhere, 10);
    expect(second.items.map((item) => item.id)).toContain('c3');
  });
});
