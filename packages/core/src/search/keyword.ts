import type { Db } from '../storage/index.ts';
import { commonTermRows, mayMatchMany, requiredTerms, termRowCounts, type TermMatch } from './common-terms.ts';
import { ftsQuery } from './fts-query.ts';
import type { ModeResult, RankedItem, SearchContext, SearchScope } from './types.ts';

/** Why a keyword search relaxed its query: no item contained every term, so items with any term are ranked. */
export const anyTermFallback = 'any_term: nothing contained every term, so results contain at least one of them';

/** BM25 column weights of fts_nodes (node_id, label, body): a label hit counts three times a property hit. */
const nodeWeights = '0, 3.0, 1.0';

/** A BM25 match: SQLite's bm25() value, lower (more negative) is better. */
export interface KeywordHit {
  id: string;
  rank: number;
}

/**
 * Which nodes a search may return, as a predicate on alias `n` with its bindings. A node's sources are
 * the ones that contributed it (`node_sources`, written by extraction) plus the row's own `source_id`
 * (a node created with one, which the canvas hides with that source too). A node with no source at all
 * was made by hand and is always visible; otherwise at least one of its sources must be enabled, and,
 * when the scope names sources, be one of them.
 */
function nodeVisibility(scope: SearchScope): { sql: string; bindings: string[] } {
  if (scope.sourceIds) {
    const ids = JSON.stringify(scope.sourceIds);
    return {
      sql: `(EXISTS (SELECT 1 FROM sources s WHERE s.id = n.source_id AND s.enabled = 1 AND s.id IN (SELECT value FROM json_each(?)))
        OR EXISTS (SELECT 1 FROM node_sources ns JOIN sources s ON s.id = ns.source_id
                   WHERE ns.node_id = n.id AND s.enabled = 1 AND ns.source_id IN (SELECT value FROM json_each(?))))`,
      bindings: [ids, ids],
    };
  }
  return {
    sql: `((n.source_id IS NULL AND NOT EXISTS (SELECT 1 FROM node_sources ns WHERE ns.node_id = n.id))
      OR EXISTS (SELECT 1 FROM sources s WHERE s.id = n.source_id AND s.enabled = 1)
      OR EXISTS (SELECT 1 FROM node_sources ns JOIN sources s ON s.id = ns.source_id WHERE ns.node_id = n.id AND s.enabled = 1))`,
    bindings: [],
  };
}

/** How to rank one full-text table and keep only the rows a search may return. */
interface MatchSpec {
  /** The FTS5 table, whose rowid is the rowid of the row table. */
  fts: string;
  /** The BM25 expression (negative, lower is better). */
  rank: string;
  /** The row table as `table alias`, with any table joined to it for the filter. */
  from: string;
  alias: string;
  /** Predicate on the row alias that a returned row must pass, and its bindings. */
  keep: string;
  bindings: string[];
  /** The filter may keep a small share of the matches (a scope): skip straight to the joined query. */
  selective: boolean;
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
async function rankingWindowStart(db: Db, fts: string, match: string): Promise<number | null> {
  const rows = (await db.raw(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`, [match, commonTermRows])) as { rowid: number }[];
  return rows.length ? rows[0].rowid + 1 : null;
}

/**
 * The best `limit` rows matching `match` that pass the spec's filter, best first.
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
async function topMatches(db: Db, spec: MatchSpec, { expression: match, many }: TermMatch, limit: number): Promise<KeywordHit[]> {
  const { fts, rank, from, alias, keep, bindings } = spec;
  if (!spec.selective) {
    const fetch = limit * 2 + 20;
    // The term counts already say whether the window can apply: most searches skip the probe.
    const windowStart = many ? await rankingWindowStart(db, fts, match) : null;
    const ranked = (await db.raw(
      `SELECT rowid, ${rank} AS rank FROM ${fts} WHERE ${fts} MATCH ? AND rowid >= ? ORDER BY rank, rowid LIMIT ?`,
      [match, windowStart ?? 0, fetch],
    )) as RankedRow[];
    const kept = (await db.raw(
      `SELECT ${alias}.rowid AS rowid, ${alias}.id AS id FROM ${from} WHERE ${alias}.rowid IN (SELECT value FROM json_each(?)) AND ${keep}`,
      [JSON.stringify(ranked.map((row) => row.rowid)), ...bindings],
    )) as { rowid: number; id: string }[];
    const ids = new Map(kept.map((row) => [row.rowid, row.id]));
    const hits = ranked.flatMap((row) => {
      const id = ids.get(row.rowid);
      return id === undefined ? [] : [{ id, rank: row.rank }];
    });
    if (hits.length >= limit || ranked.length < fetch) return hits.slice(0, limit);
  }
  return db.raw(
    `SELECT ${alias}.id AS id, ${rank} AS rank FROM ${fts} CROSS JOIN ${from}
     WHERE ${fts} MATCH ? AND ${alias}.rowid = ${fts}.rowid AND ${keep}
     ORDER BY rank, ${fts}.rowid LIMIT ?`,
    [match, ...bindings, limit],
  ) as Promise<KeywordHit[]>;
}

/** Visible nodes (of the scope's template and sources) matching `match`, by BM25 with the label weighted 3 and properties 1. */
function matchNodes(db: Db, match: TermMatch, scope: SearchScope, limit: number): Promise<KeywordHit[]> {
  const visible = nodeVisibility(scope);
  const template = scope.templateId === null ? '' : 'n.template_id = ? AND ';
  return topMatches(db, {
    fts: 'fts_nodes', rank: `bm25(fts_nodes, ${nodeWeights})`, from: 'graph_nodes n', alias: 'n',
    keep: `${template}${visible.sql}`, bindings: [...(scope.templateId === null ? [] : [scope.templateId]), ...visible.bindings],
    selective: scope.templateId !== null || scope.sourceIds !== null,
  }, match, limit);
}

/** Chunks of enabled sources (in the scope) matching `match`, by BM25. */
async function matchChunks(db: Db, match: TermMatch, scope: SearchScope, limit: number): Promise<KeywordHit[]> {
  // A template narrows the search to nodes of that template: a chunk has none.
  if (scope.templateId !== null) return [];
  return topMatches(db, {
    fts: 'fts_chunks', rank: 'bm25(fts_chunks)', from: 'document_chunks c CROSS JOIN sources s ON s.id = c.source_id', alias: 'c',
    keep: scope.sourceIds ? 's.enabled = 1 AND c.source_id IN (SELECT value FROM json_each(?))' : 's.enabled = 1',
    bindings: scope.sourceIds ? [JSON.stringify(scope.sourceIds)] : [],
    selective: scope.sourceIds !== null,
  }, match, limit);
}

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
    score: best < 0 && hit.rank < 0 ? hit.rank / best : 1 / (index + 1),
  }));
}

/**
 * Merges node and chunk rankings into one. Raw BM25 values of two tables are not comparable (different
 * columns, weights, document lengths and corpus statistics), so each list is normalised against its own
 * best hit first, then the two are interleaved by that relative score. This was chosen over RRF, which
 * keeps only positions: a list whose second hit is nearly as good as its first and a list whose second
 * hit is far weaker would interleave the same way, whereas relative scores let a close runner-up of one
 * list come before a weak one of the other. Ties keep nodes first (an entity is the more specific answer),
 * then each list's own order (the sort is stable).
 */
export function mergeKeywordRankings(nodes: KeywordHit[], chunks: KeywordHit[], limit: number): RankedItem[] {
  return [...normalised('node', nodes), ...normalised('chunk', chunks)].sort((a, b) => b.score - a.score).slice(0, limit);
}

/** What a keyword search ranks: the nodes and chunks matching a MATCH expression, merged, at most `limit`. */
type KeywordRun = (db: Db, match: TermMatch, scope: SearchScope, limit: number) => Promise<RankedItem[]>;

const nodesAndChunks: KeywordRun = async (db, match, scope, limit) =>
  mergeKeywordRankings(await matchNodes(db, match, scope, limit), await matchChunks(db, match, scope, limit), limit);

const chunksOnly: KeywordRun = async (db, match, scope, limit) => normalised('chunk', await matchChunks(db, match, scope, limit));

/**
 * Every term is required except common ones (see `commonTermRows`: words in so many rows that they add
 * nothing to the ranking but cost). When nothing holds every required term, they are ORed instead, so
 * BM25 ranks whatever holds any of them (the rare ones weigh most), and `fallback` says so. Input
 * without a searchable term gives no results.
 */
async function rankByKeyword(context: SearchContext, query: string, scope: SearchScope, limit: number, run: KeywordRun): Promise<ModeResult> {
  const parsed = ftsQuery(query);
  const size = Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : 1;
  if (!parsed || (scope.sourceIds && scope.sourceIds.length === 0)) return { items: [], fallback: null };
  const counts = await termRowCounts(context.db, parsed.terms);
  const required = requiredTerms(parsed.terms, counts);
  const items = await run(context.db, { expression: required.join(' '), many: mayMatchMany(required, counts, 'all') }, scope, size);
  if (items.length || required.length === 1) return { items, fallback: null };
  const relaxed = await run(context.db, { expression: required.join(' OR '), many: mayMatchMany(required, counts, 'any') }, scope, size);
  return { items: relaxed, fallback: relaxed.length ? anyTermFallback : null };
}

/**
 * Keyword mode: BM25 over node labels and properties (label weighted 3, properties 1) and over chunk
 * text, each list cut at `limit` inside SQL after the scope and enabled-source filters, merged by
 * relative score (see mergeKeywordRankings); the terms as `rankByKeyword` chooses them.
 */
export function keywordSearch(context: SearchContext, query: string, scope: SearchScope, limit: number): Promise<ModeResult> {
  return rankByKeyword(context, query, scope, limit, nodesAndChunks);
}

/** Chunks only, by the same terms and BM25, scored relative to the best (graph search's keyword passages). */
export function keywordChunks(context: SearchContext, query: string, scope: SearchScope, limit: number): Promise<ModeResult> {
  return rankByKeyword(context, query, scope, limit, chunksOnly);
}
