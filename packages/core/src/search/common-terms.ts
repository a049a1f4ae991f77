import type { Db } from '../storage/index.ts';
import { fulltextEntries, fulltextMatches } from './read-model/fulltext.ts';

/**
 * What a full-text ranking costs, and how keyword search keeps it bounded. FTS5's bm25() first counts,
 * for each term, every row holding it (its IDF), then scores every match: at a million chunks a word
 * like "the" costs about 100 ms before a single row is scored, "film" 20 ms, and scoring runs at a few
 * microseconds a match. Such words add next to nothing to BM25 (IDF near zero), so a term found in
 * `commonTermRows` rows or more is *common*: a query leaves it out when it has rarer terms, exactly as
 * search engines drop stop words. The any-term fallback ORs the same terms; when together they may
 * match more than that figure, keyword search ranks only the newest matches (`rankingWindowStart`).
 */
export const commonTermRows = 10_000;
/**
 * Counts stop here (a rowid walk, no scoring: about 10 ms at the cap, once per term and database while
 * cached). A query of common terms only keeps those under it, so "the" never joins "Private Life".
 */
export const countedTermRows = 100_000;

/** How long a database's term counts are reused: they move slowly, and a stale count only shifts a cut-off. */
const countsTtlMs = 10 * 60_000;

interface TermCounts {
  at: number;
  rows: Map<string, number>;
  /** Entries of both full-text indexes, read once per cache lifetime. */
  entries: number | null;
}

const caches = new WeakMap<Db, TermCounts>();

/** The cached counts of `db`, started afresh when they are older than `countsTtlMs`. */
function countsOf(db: Db): TermCounts {
  let cache = caches.get(db);
  if (!cache || Date.now() - cache.at > countsTtlMs) {
    cache = { at: Date.now(), rows: new Map(), entries: null };
    caches.set(db, cache);
  }
  return cache;
}

/** Rows of chunks and nodes matching the quoted term, counted up to `countedTermRows`. */
async function countRows(db: Db, term: string): Promise<number> {
  return Math.min(await fulltextMatches(db, term, countedTermRows), countedTermRows);
}

/** Each quoted term (as `ftsQuery` makes them: a word, a phrase or a prefix) with its row count, capped at `countedTermRows`. */
export async function termRowCounts(db: Db, terms: string[]): Promise<Map<string, number>> {
  const cache = countsOf(db);
  const counts = new Map<string, number>();
  for (const term of terms) {
    let rows = cache.rows.get(term);
    if (rows === undefined) {
      rows = await countRows(db, term);
      cache.rows.set(term, rows);
    }
    counts.set(term, rows);
  }
  return counts;
}

/** Rows of the chunk and node indexes together: what a term's count is a share of. */
export async function indexedRows(db: Db): Promise<number> {
  const cache = countsOf(db);
  cache.entries ??= await fulltextEntries(db);
  return cache.entries;
}

/** Drops the cached counts of `db` (tests; a database replaced). */
export function forgetTermCounts(db: Db): void {
  caches.delete(db);
}

/**
 * The terms every result must hold: those under `commonTermRows` and in at most half of the
 * `indexRows` rows (a word most rows hold, "the" or "was" in a small collection, tells them apart no
 * more than a common one: BM25's IDF is zero or below for it), as long as one of them matches at all;
 * when every term is common, those under
 * `countedTermRows`; when every term is that common, the rarest one.
 */
export function requiredTerms(terms: string[], counts: Map<string, number>, indexRows = Infinity): string[] {
  const rowsOf = (term: string) => counts.get(term) ?? 0;
  const informative = terms.filter((term) => rowsOf(term) < commonTermRows && 2 * rowsOf(term) <= indexRows);
  if (informative.some((term) => rowsOf(term) > 0)) return informative;
  for (const below of [commonTermRows, countedTermRows]) {
    const kept = terms.filter((term) => rowsOf(term) < below);
    if (kept.length) return kept;
  }
  return [terms.reduce((rarest, term) => (rowsOf(term) < rowsOf(rarest) ? term : rarest))];
}

/** A MATCH expression of quoted terms, and whether it may match more than `commonTermRows` rows. */
export interface TermMatch {
  expression: string;
  many: boolean;
}

/**
 * Whether the terms, joined by AND (`all`) or OR (`any`), may match more than `commonTermRows` rows,
 * judged from their counts: an AND matches no more rows than its rarest term, an OR no more than the sum.
 */
export function mayMatchMany(terms: string[], counts: Map<string, number>, join: 'all' | 'any'): boolean {
  const rows = terms.map((term) => counts.get(term) ?? 0);
  return (join === 'all' ? Math.min(...rows) : rows.reduce((sum, value) => sum + value, 0)) > commonTermRows;
}
