import { jsonArrayValues, selectRows, type Db } from '../storage/index.ts';
import {
  commonTermRows,
  indexedRows,
  mayMatchMany,
  requiredTerms,
  termRowCounts,
  type TermMatch,
} from './common-terms.ts';
import { ftsQuery } from './fts-query.ts';
import { namesFromBestPassages } from './mention-expansion.ts';
import { chunkContents } from './read-model/chunks.ts';
import { namedAlternatives } from './named-alternatives.ts';
import { contentTerms } from './stop-words.ts';
import { fulltextSql, type FulltextSql, type FulltextTable } from './read-model/fulltext-sql.ts';
import { chunkMatchSpec, nodeMatchSpec, nodesLabelled, type MatchSpec } from './read-model/keyword-matches.ts';
import type { ModeResult, RankedItem, SearchContext, SearchScope } from './types.ts';

/** Why a keyword search relaxed its query: no item contained every term, so items with any term are ranked. */
export const anyTermFallback = 'any_term: nothing contained every term, so results contain at least one of them';

/** A full-text match: its rank (bm25(), or ts_rank_cd negated), lower (more negative) is better. */
export interface KeywordHit {
  id: string;
  rank: number;
  /** The row's rowid (its full-text entry's). */
  rowid?: number;
  /** The share of the query a node's label holds (see `labelCoverage`); 1 when not weighed. */
  coverage?: number;
}

interface RankedRow {
  rowid: number;
  rank: number;
}

/**
 * The lowest rowid an unscoped ranking needs to score. FTS5 scores every match before it can sort, a few
 * microseconds each, so a query left with only common terms (say "film" alone) would score a third of a
 * million chunks. When more than `commonTermRows` rows match, only the newest that many (the highest
 * rowids) are ranked: found by walking the doclist backwards without scoring, a small share of the
 * scoring's cost. Every result still matches the query; what is given up is the best-scoring older
 * match of a very common query. Null when every match fits.
 */
async function rankingWindowStart(db: Db, sql: FulltextSql, fts: FulltextTable, query: string): Promise<number | null> {
  const rows = await selectRows<{ rowid: number }>(
    db,
    `SELECT rowid FROM ${sql.source(fts)} WHERE ${sql.matches(fts)} ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
    [query, commonTermRows],
  );
  return rows.length ? rows[0].rowid + 1 : null;
}

/**
 * The best `limit` rows matching `match` that pass the search filter (enabled sources, the scope), best first.
 *
 * FTS5 computes BM25 for every match whatever the LIMIT, and joining each match to its row and source
 * to filter it costs more than the ranking itself (300k chunks, a term in a third of them: 100 ms to
 * rank, 240 ms ranked and joined). So without a scope the ranking runs on the index alone and only its
 * top rows (twice the limit, plus slack) are filtered; disabled sources rarely hold a large share of a
 * ranking, and when the filter leaves too few rows, or a scope may keep only a small share, the joined
 * query ranks just the rows that pass (its CROSS JOINs keep the full-text match as the outer loop, so
 * the planner never scans the rows and probes the index per row). Ties go by rowid either way. The
 * unscoped ranking is confined to the newest matches of a very common query (`rankingWindowStart`); the
 * joined one is not, as a scope may keep none of them.
 */
async function topMatches(
  db: Db,
  spec: MatchSpec,
  { expression: match, many }: TermMatch,
  limit: number,
): Promise<KeywordHit[]> {
  const { fts, from, alias, keep, bindings } = spec;
  const sql = fulltextSql(db);
  const query = sql.query(match);
  const rank = sql.rank(fts);
  if (!spec.selective) {
    const fetch = limit * 2 + 20;
    // The term counts already say whether the window can apply: most searches skip the probe.
    const windowStart = many ? await rankingWindowStart(db, sql, fts, query) : null;
    const ranked = await selectRows<RankedRow>(
      db,
      `SELECT rowid, ${rank} AS rank FROM ${sql.source(fts)} WHERE ${sql.matches(fts)} AND rowid >= ? ORDER BY rank, rowid LIMIT ?`,
      [query, windowStart ?? 0, fetch],
    );
    const kept = await selectRows<{ rowid: number; id: string }>(
      db,
      `SELECT ${alias}.rowid AS rowid, ${alias}.id AS id FROM ${from} WHERE ${alias}.rowid IN (${jsonArrayValues(db, 'integer')}) AND ${keep}`,
      [JSON.stringify(ranked.map((row) => row.rowid)), ...bindings],
    );
    const ids = new Map(kept.map((row) => [row.rowid, row.id]));
    const hits = ranked.flatMap((row) => {
      const id = ids.get(row.rowid);
      return id === undefined ? [] : [{ id, rank: row.rank, rowid: row.rowid }];
    });
    if (hits.length >= limit || ranked.length < fetch) return hits.slice(0, limit);
  }
  return selectRows<KeywordHit>(
    db,
    `SELECT ${alias}.id AS id, ${rank} AS rank, ${alias}.rowid AS rowid FROM ${sql.source(fts)} CROSS JOIN ${from}
     WHERE ${sql.matches(fts)} AND ${alias}.rowid = ${fts}.rowid AND ${keep}
     ORDER BY rank, ${fts}.rowid LIMIT ?`,
    [query, ...bindings, limit],
  );
}

/** Visible nodes (of the scope's template and sources) matching `match`, by BM25 with the label weighted 3 and properties 1. */
function matchNodes(db: Db, match: TermMatch, scope: SearchScope, limit: number): Promise<KeywordHit[]> {
  return topMatches(db, nodeMatchSpec(db, scope), match, limit);
}

/** What a term tells apart: its inverse document frequency over the indexed rows. */
const informationOf = (rows: number, indexRows: number) => Math.log(1 + indexRows / (rows + 1));

/**
 * Each node hit with the share of the query its label holds: the terms found in the label, each
 * weighed by what it tells apart, over all of them. A node named by the whole query ("Marie Curie")
 * covers it; one whose label shares a word with a question ("Git 2.39.5 GIT-ADD" for "what does the
 * git add command do") only part of it, and ranks that much lower beside the passages.
 */
async function labelCoverage(
  db: Db,
  hits: KeywordHit[],
  terms: readonly string[],
  counts: ReadonlyMap<string, number>,
  indexRows: number,
): Promise<KeywordHit[]> {
  const rowids = hits.flatMap((hit) => (hit.rowid === undefined ? [] : [hit.rowid]));
  if (!rowids.length || !terms.length) return hits;
  const covered = new Map<number, number>();
  let total = 0;
  for (const term of terms) {
    const weight = informationOf(counts.get(term) ?? 0, indexRows);
    total += weight;
    for (const rowid of await nodesLabelled(db, rowids, term)) covered.set(rowid, (covered.get(rowid) ?? 0) + weight);
  }
  return hits.map((hit) => ({
    ...hit,
    coverage: total > 0 && hit.rowid !== undefined ? (covered.get(hit.rowid) ?? 0) / total : 1,
  }));
}

/** Chunks of enabled sources (in the scope) matching `match`, by BM25. */
async function matchChunks(db: Db, match: TermMatch, scope: SearchScope, limit: number): Promise<KeywordHit[]> {
  // A template narrows the search to nodes of that template: a chunk has none.
  if (scope.templateId !== null) return [];
  return topMatches(db, chunkMatchSpec(db, scope), match, limit);
}

/**
 * How much of its relative score a node keeps for the share of the query its label holds: all of it
 * for the whole query, a quarter when the query's terms are only in its properties.
 */
const coverageFactor = (coverage: number) => (1 + 3 * coverage) / 4;

/**
 * One list's BM25 values as scores in (0, 1]: each hit's BM25 over the list's best, so the best hit of
 * each list scores 1 and the others keep their distance from it. (bm25() is negative for every match,
 * as FTS5 floors a term's IDF at a tiny positive value; the guard only keeps scores positive.)
 */
function normalised(kind: RankedItem['kind'], hits: KeywordHit[]): RankedItem[] {
  const best = hits[0]?.rank ?? 0;
  return hits.map((hit, index) => ({
    kind,
    id: hit.id,
    score: (best < 0 && hit.rank < 0 ? hit.rank / best : 1 / (index + 1)) * coverageFactor(hit.coverage ?? 1),
  }));
}

/**
 * Merges node and chunk rankings into one. Raw BM25 values of two tables are not comparable (different
 * columns, weights, document lengths and corpus statistics), so each list is normalised against its own
 * best hit first, then the two are interleaved by that relative score. This was chosen over RRF, which
 * keeps only positions: a list whose second hit is nearly as good as its first and a list whose second
 * hit is far weaker would interleave the same way, whereas relative scores let a close runner-up of one
 * list come before a weak one of the other. A node's score is also scaled by its `coverage` (the share
 * of the query its label holds), so the best node only ties the best chunk when its name is what the
 * query asks for. Ties keep nodes first (an entity is the more specific answer), then each list's own
 * order (the sort is stable).
 */
export function mergeKeywordRankings(nodes: KeywordHit[], chunks: KeywordHit[], limit: number): RankedItem[] {
  return [...normalised('node', nodes), ...normalised('chunk', chunks)]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** The terms a keyword search ranks by, with their row counts and the rows of the indexes. */
interface RankedTerms {
  terms: string[];
  counts: ReadonlyMap<string, number>;
  indexRows: number;
}

/** What a keyword search ranks: the nodes and chunks matching a MATCH expression, merged, at most `limit`. */
type KeywordRun = (
  db: Db,
  match: TermMatch,
  terms: RankedTerms,
  scope: SearchScope,
  limit: number,
) => Promise<RankedItem[]>;

const nodesAndChunks: KeywordRun = async (db, match, { terms, counts, indexRows }, scope, limit) => {
  const nodes = await labelCoverage(db, await matchNodes(db, match, scope, limit), terms, counts, indexRows);
  return mergeKeywordRankings(nodes, await matchChunks(db, match, scope, limit), limit);
};

const chunksOnly: KeywordRun = async (db, match, _terms, scope, limit) =>
  normalised('chunk', await matchChunks(db, match, scope, limit));

/**
 * `extra` after `first`, up to `limit`: the items `first` lacks, each scored below the last of
 * `first` (its own relative score times that one's), so the two rankings keep their order.
 */
function appended(first: RankedItem[], extra: RankedItem[], limit: number): RankedItem[] {
  const seen = new Set(first.map((item) => `${item.kind}:${item.id}`));
  const floor = first.at(-1)?.score ?? 1;
  const added = extra
    .filter((item) => !seen.has(`${item.kind}:${item.id}`))
    .map((item) => ({ ...item, score: item.score * floor }));
  return [...first, ...added].slice(0, limit);
}

/**
 * Every term is required except function words (`contentTerms`) and common ones (see
 * `commonTermRows`: words in so many rows that they add nothing to the ranking but cost, or in most
 * rows of the collection). The items holding every required term come first; when they are fewer
 * than `limit`, the items holding any of them follow (BM25 ranks those by the rare ones), as a
 * question naming two things ("born first, X or Y") is answered by passages each naming one. When
 * no chunk holds every required term (no node either, when a template leaves chunks out), the
 * ranking is the any-term one alone and `fallback` says so. Input without a searchable term gives
 * no results.
 */
async function rankByTerms(
  context: SearchContext,
  query: string,
  scope: SearchScope,
  size: number,
  run: KeywordRun,
): Promise<ModeResult> {
  const parsed = ftsQuery(query);
  if (!parsed || (scope.sourceIds && scope.sourceIds.length === 0)) return { items: [], fallback: null };
  const terms = contentTerms(parsed.terms);
  const counts = await termRowCounts(context.db, terms);
  const indexRows = await indexedRows(context.db);
  const required = requiredTerms(terms, counts, indexRows);
  const ranked: RankedTerms = { terms: required, counts, indexRows };
  const items = await run(
    context.db,
    { expression: required.join(' '), many: mayMatchMany(required, counts, 'all') },
    ranked,
    scope,
    size,
  );
  if (required.length === 1 || items.length >= size) return { items, fallback: null };
  const relaxed = await run(
    context.db,
    { expression: required.join(' OR '), many: mayMatchMany(required, counts, 'any') },
    ranked,
    scope,
    size,
  );
  // Passages are what a search must not come back without: entities holding every term (often through
  // their properties) while no chunk does still leave the question to the chunks holding some of them.
  const passagesWanted = scope.templateId === null;
  const found = passagesWanted ? items.some((item) => item.kind === 'chunk') : items.length > 0;
  if (found) return { items: appended(items, relaxed, size), fallback: null };
  return { items: relaxed, fallback: relaxed.length ? anyTermFallback : null };
}

/**
 * Several rankings in one, at most `limit`: each item at its best score in any of them, higher first,
 * ties in turn (the first of each ranking, then the second of each …). The rankings score relative to
 * their own best, so each one's best hit is among the first.
 */
function interleaved(rankings: readonly RankedItem[][], limit: number): RankedItem[] {
  const best = new Map<string, RankedItem>();
  const longest = Math.max(...rankings.map((ranking) => ranking.length));
  for (let position = 0; position < longest; position++)
    for (const ranking of rankings) {
      const item = ranking[position];
      if (!item) continue;
      const key = `${item.kind}:${item.id}`;
      const held = best.get(key);
      if (!held || held.score < item.score) best.set(key, held ? { ...held, score: item.score } : item);
    }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}

/** How many results a limit asks for: a whole number, at least 1. */
const resultCount = (limit: number) => (Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : 1);

/**
 * The ranking of `rankByTerms`; when the query sets names side by side (`namedAlternatives`: "born
 * first, X or Y"), interleaved with one ranking per name, so the passage about each is found whichever
 * name has the rarer words; and with the passages about what the best passages
 * name (`mentionRankings`).
 */
async function rankByKeyword(
  context: SearchContext,
  query: string,
  scope: SearchScope,
  limit: number,
  run: KeywordRun,
): Promise<ModeResult> {
  const size = resultCount(limit);
  const whole = await rankByTerms(context, query, scope, size, run);
  const names = namedAlternatives(query);
  const perName: RankedItem[][] = [];
  for (const name of names.length < 2 ? [] : names)
    perName.push((await rankByTerms(context, name, scope, size, run)).items);
  const found = perName.length ? interleaved([whole.items, ...perName], size) : whole.items;
  const mentioned = await mentionRankings(context, found, query, scope);
  return { items: mentioned.length ? interleaved([found, ...mentioned], size) : found, fallback: whole.fallback };
}

/**
 * The passages about what the best passages name: a question about "the director of Polish Easter" is
 * answered by the film's passage, which names the director, and by the director's own passage, which
 * shares no rare word with the question. Each name the best passages mention is searched as a phrase;
 * its best passages score below the passage that named it (its relative score times that one's, scaled
 * by `mentionWeight`), so they come after the question's own best passages and before its weak ones.
 */
async function mentionRankings(
  context: SearchContext,
  items: readonly RankedItem[],
  query: string,
  scope: SearchScope,
): Promise<RankedItem[][]> {
  const rankings: RankedItem[][] = [];
  for (const { name, score, sourceId } of await namesFromBestPassages(context.db, items, query)) {
    const { items: about } = await rankByTerms(context, `"${name}"`, scope, mentionedDepth + 1, chunksOnly);
    // What the passage names elsewhere: its own document's other passages repeat the name without being about it.
    const sources = await chunkContents(
      context.db,
      about.map((item) => item.id),
    );
    const elsewhere = about.filter((item) => sources.get(item.id)?.sourceId !== sourceId).slice(0, mentionedDepth);
    rankings.push(elsewhere.map((item) => ({ ...item, score: item.score * score * mentionWeight })));
  }
  return rankings;
}

const mentionedDepth = 2;
/** How far below the passage naming it a mentioned passage ranks. */
const mentionWeight = 0.8;

/**
 * Keyword mode: BM25 over node labels and properties (label weighted 3, properties 1) and over chunk
 * text, each list cut at `limit` inside SQL after the scope and enabled-source filters, merged by
 * relative score (see mergeKeywordRankings); the terms as `rankByKeyword` chooses them.
 */
export function keywordSearch(
  context: SearchContext,
  query: string,
  scope: SearchScope,
  limit: number,
): Promise<ModeResult> {
  return rankByKeyword(context, query, scope, limit, nodesAndChunks);
}

/** Chunks only, by the same terms and BM25, scored relative to the best (graph search's keyword passages). */
export function keywordChunks(
  context: SearchContext,
  query: string,
  scope: SearchScope,
  limit: number,
): Promise<ModeResult> {
  return rankByKeyword(context, query, scope, limit, chunksOnly);
}
