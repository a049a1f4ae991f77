import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { wikiCorpus } from '../fixtures/wiki-corpus.ts';
import {
  corpusPart,
  emptyStats,
  learnTexts,
  type CorpusSnapshot,
  type TermStats,
} from '../../src/search/vectors/corpus/model.ts';
import { corpusAware } from '../../src/search/vectors/corpus/embed.ts';
import { chunkCountAfter } from '../../src/search/vectors/corpus/read-model.ts';
import { corpusState, learnChunks, snapshotFor, termStats, wordsOf } from '../../src/search/vectors/corpus/store.ts';
import { learnAll, needsRefresh } from '../../src/search/vectors/corpus/update.ts';
import { openSqlite } from '../../src/storage/connection.ts';
import { addChunk, addSource, openTestDatabase, type TestDatabase } from './graph-support.ts';

const passages = wikiCorpus.slice(0, 120).map((passage) => `${passage.title}\n\n${passage.text}`);
const queries = ['Who directed the film?', 'Where was the composer born?', passages[7].slice(0, 80)];

let opened: TestDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

function learned(seed: number, texts: readonly string[]): CorpusSnapshot {
  const terms = new Map<string, TermStats>(wordsOf(texts).map((word) => [word, emptyStats()]));
  learnTexts(seed, texts, terms);
  return { seed, documents: texts.length, terms };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

async function withChunks(texts: readonly string[]): Promise<TestDatabase> {
  opened = await openTestDatabase('corpus-embed-');
  await addSource(opened.db, 's1');
  for (const [index, text] of texts.entries()) await addChunk(opened.db, `c${index}`, 's1', text);
  return opened;
}

describe('corpus model', () => {
  it('is deterministic for a seed, and another seed gives other vectors', () => {
    const [first, again, other] = [learned(7, passages), learned(7, passages), learned(8, passages)];
    for (const query of queries) {
      expect(corpusPart(query, again)).toEqual(corpusPart(query, first));
      expect(cosine(corpusPart(query, other), corpusPart(query, first))).toBeLessThan(0.9);
    }
  });

  it('gives a text its rare words: a passage is nearest its own opening among all passages', () => {
    const corpus = learned(7, passages);
    const opening = corpusPart(passages[7].slice(0, 80), corpus);
    const nearest = passages
      .map((passage, index) => ({ index, similarity: cosine(opening, corpusPart(passage, corpus)) }))
      .sort((a, b) => b.similarity - a.similarity)[0];
    expect(nearest.index).toBe(7);
  });

  it('learned a wave at a time, stores the model that learning everything at once gives', async () => {
    const { db } = await withChunks(passages);
    const chunks = (await db('document_chunks').orderBy('rowid').select('rowid', 'content')) as {
      rowid: number;
      content: string;
    }[];
    for (let start = 0; start < chunks.length; start += 17) await learnChunks(db, chunks.slice(start, start + 17));
    const state = await corpusState(db);
    const rebuilt = await learnAll(db, state.seed);
    expect([state.documents, state.learnedThrough]).toEqual([rebuilt.documents, rebuilt.learnedThrough]);
    const stored = await termStats(db, [...rebuilt.terms.keys()]);
    expect(stored.size).toBe(rebuilt.terms.size);
    let countsDiffer = 0;
    let largestDifference = 0;
    for (const [word, stats] of rebuilt.terms) {
      const kept = stored.get(word)!;
      if (kept.documents !== stats.documents) countsDiffer++;
      for (let i = 0; i < stats.context.length; i++)
        largestDifference = Math.max(largestDifference, Math.abs(kept.context[i] - stats.context[i]));
    }
    expect([countsDiffer, largestDifference]).toEqual([0, expect.closeTo(0, 3)]);
    const incremental = await snapshotFor(db, queries);
    for (const query of queries)
      expect(cosine(corpusPart(query, incremental), corpusPart(query, rebuilt))).toBeGreaterThan(0.99999);
  });

  it('is stored: reopened, the database has the model it learned and nothing left to learn', async () => {
    const { db, dir } = await withChunks(passages.slice(0, 30));
    const chunks = (await db('document_chunks').orderBy('rowid').select('rowid', 'content')) as {
      rowid: number;
      content: string;
    }[];
    await learnChunks(db, chunks);
    const before = await snapshotFor(db, queries);
    await db.destroy();
    const reopened = openSqlite(path.join(dir, 'app.db'));
    try {
      const state = await corpusState(reopened);
      const pending = await chunkCountAfter(reopened, state.learnedThrough);
      expect([state.documents, pending, needsRefresh({ ...state, refreshedDocuments: 30 }, pending)]).toEqual([
        30,
        0,
        false,
      ]);
      const after = await snapshotFor(reopened, queries);
      for (const query of queries) expect(corpusPart(query, after)).toEqual(corpusPart(query, before));
    } finally {
      await reopened.destroy();
    }
  });

  it("fills the corpus part of builtin vectors only: another embedder's vectors pass unchanged", async () => {
    const { db } = await withChunks(passages.slice(0, 20));
    const chunks = (await db('document_chunks').orderBy('rowid').select('rowid', 'content')) as {
      rowid: number;
      content: string;
    }[];
    await learnChunks(db, chunks);
    const made = new Float32Array(356);
    made[0] = 1;
    const embed = (texts: string[]) => Promise.resolve(texts.map(() => made));
    const [other] = await corpusAware(db, () => ({ provider: 'openai', dimensions: 356 }), embed)([queries[2]]);
    const [builtin] = await corpusAware(db, () => ({ provider: 'builtin', dimensions: 356 }), embed)([queries[2]]);
    expect(other).toBe(made);
    expect(builtin.subarray(100).some((component) => component !== 0)).toBe(true);
    expect(builtin[0]).toBeGreaterThan(0);
  });

  it('is learned anew once the corpus grew by half, or by a fifth when no chunk waits to be learned', () => {
    const at = (documents: number, refreshedDocuments: number) => ({
      seed: 1,
      documents,
      learnedThrough: documents,
      refreshedDocuments,
    });
    expect([
      needsRefresh(at(0, 0), 0),
      needsRefresh(at(0, 0), 5),
      needsRefresh(at(100, 100), 49),
      needsRefresh(at(100, 100), 50),
      needsRefresh(at(119, 100), 0),
      needsRefresh(at(120, 100), 0),
    ]).toEqual([false, true, false, true, false, true]);
  });
});
