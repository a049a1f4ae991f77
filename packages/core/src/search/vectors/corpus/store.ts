import { decodeVector, encodeVector, type Db } from '../../../storage/index.ts';
import { emptyStats, learnTexts, type CorpusSnapshot, type TermStats } from './model.ts';
import { corpusDimensions, termCounts } from './terms.ts';

/**
 * The corpus model as stored (migration 0015): `corpus_terms`, one row per word, and the `corpus_state`
 * row. Learning reads the rows of the words it touches, adds to them and writes them back in one
 * transaction, so the stored model is always that of the chunks it says it has learned.
 */

export interface CorpusState {
  seed: number;
  /** Chunks learned. */
  documents: number;
  /** The highest chunk rowid learned: chunks above it are still to learn. */
  learnedThrough: number;
  /** `documents` when every chunk and node vector was last made anew. */
  refreshedDocuments: number;
}

/** The seed of a database's index vectors, fixed when it learns its first chunk. */
export const defaultSeed = 20_260_101;
/** Words per `IN (…)` lookup. */
const lookupSize = 500;
/** Rows per insert statement (three parameters each). */
const writeSize = 300;

interface StateRow {
  seed: number;
  documents: number;
  learned_through: number;
  refreshed_documents: number;
}

export async function corpusState(db: Db): Promise<CorpusState> {
  const row = (await db('corpus_state').where({ id: 1 }).first()) as StateRow | undefined;
  return row
    ? {
        seed: row.seed,
        documents: row.documents,
        learnedThrough: row.learned_through,
        refreshedDocuments: row.refreshed_documents,
      }
    : { seed: defaultSeed, documents: 0, learnedThrough: 0, refreshedDocuments: 0 };
}

/** The stored statistics of `words` (those the corpus has). */
export async function termStats(db: Db, words: readonly string[]): Promise<Map<string, TermStats>> {
  const found = new Map<string, TermStats>();
  for (let start = 0; start < words.length; start += lookupSize) {
    const rows = (await db('corpus_terms')
      .whereIn('term', words.slice(start, start + lookupSize))
      .select('term', 'documents', 'context')) as { term: string; documents: number; context: Buffer }[];
    for (const row of rows)
      found.set(row.term, { documents: row.documents, context: decodeVector(row.context, corpusDimensions) });
  }
  return found;
}

/** What making vectors of `texts` needs of the stored model. */
export async function snapshotFor(db: Db, texts: readonly string[]): Promise<CorpusSnapshot> {
  const state = await corpusState(db);
  return { seed: state.seed, documents: state.documents, terms: await termStats(db, wordsOf(texts)) };
}

/**
 * Learns chunks (rowid order, every rowid above the state's `learnedThrough`) and returns the model they
 * are then embedded with.
 */
export async function learnChunks(
  db: Db,
  chunks: readonly { rowid: number; content: string }[],
): Promise<CorpusSnapshot> {
  return db.transaction(async (trx) => {
    const state = await corpusState(trx);
    const texts = chunks.map((chunk) => chunk.content);
    const words = wordsOf(texts);
    const terms = await termStats(trx, words);
    for (const word of words) if (!terms.has(word)) terms.set(word, emptyStats());
    learnTexts(state.seed, texts, terms);
    await writeTerms(trx, terms);
    const next: CorpusState = {
      ...state,
      documents: state.documents + chunks.length,
      learnedThrough: Math.max(state.learnedThrough, chunks[chunks.length - 1]?.rowid ?? 0),
    };
    await writeState(trx, next);
    return { seed: state.seed, documents: next.documents, terms };
  });
}

/**
 * Replaces the stored model with one learned from scratch (`terms`, of `documents` chunks up to rowid
 * `learnedThrough`). The vectors are re-made next; `markRefreshed` records that they were.
 */
export async function replaceCorpus(
  db: Db,
  model: { seed: number; documents: number; learnedThrough: number; terms: ReadonlyMap<string, TermStats> },
): Promise<void> {
  await db.transaction(async (trx) => {
    const { refreshedDocuments } = await corpusState(trx);
    await trx('corpus_terms').delete();
    await writeTerms(trx, model.terms);
    await writeState(trx, {
      seed: model.seed,
      documents: model.documents,
      learnedThrough: model.learnedThrough,
      refreshedDocuments,
    });
  });
}

/** Records that every vector was re-made with the model of `documents` chunks. */
export async function markRefreshed(db: Db, documents: number): Promise<void> {
  await db('corpus_state').where({ id: 1 }).update({ refreshed_documents: documents });
}

export function wordsOf(texts: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const word of termCounts(text).keys()) words.add(word);
  return [...words];
}

async function writeTerms(db: Db, terms: ReadonlyMap<string, TermStats>): Promise<void> {
  const rows = [...terms].map(([term, stats]) => ({
    term,
    documents: stats.documents,
    context: encodeVector(stats.context),
  }));
  for (let start = 0; start < rows.length; start += writeSize)
    await db('corpus_terms')
      .insert(rows.slice(start, start + writeSize))
      .onConflict('term')
      .merge();
}

async function writeState(db: Db, state: CorpusState): Promise<void> {
  await db('corpus_state')
    .insert({
      id: 1,
      seed: state.seed,
      documents: state.documents,
      learned_through: state.learnedThrough,
      refreshed_documents: state.refreshedDocuments,
      updated_at: new Date().toISOString(),
    })
    .onConflict('id')
    .merge();
}
