/**
 * Search's read model for keyword search: what a full-text match is ranked in and filtered by. Names the
 * graph's `graph_nodes`, `node_sources` and node full-text index (`fts_nodes`), the sources feature's
 * `document_chunks` and `sources`, and search's own `fts_chunks`, as SQL fragments `keyword.ts` runs:
 * BM25 ranking and the visibility filter must run inside one statement to stop at `limit`.
 */
import type { Db } from '../../storage/index.ts';
import type { SearchScope } from '../types.ts';

/** BM25 column weights of fts_nodes (node_id, label, body): a label hit counts three times a property hit. */
const nodeWeights = '0, 3.0, 1.0';
/**
 * BM25 column weights of fts_chunks (content, title): a term of the source's title counts three times a
 * term of the text, the title field of BM25F. The title names what the whole source is about, so every
 * chunk of it is about that too, whether or not its text repeats the name.
 */
const chunkWeights = '1.0, 3.0';

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
export interface MatchSpec {
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

/** Nodes: the scope's template and sources, with the label weighted 3 and properties 1. */
export function nodeMatchSpec(scope: SearchScope): MatchSpec {
  const visible = nodeVisibility(scope);
  const template = scope.templateId === null ? '' : 'n.template_id = ? AND ';
  return {
    fts: 'fts_nodes',
    rank: `bm25(fts_nodes, ${nodeWeights})`,
    from: 'graph_nodes n',
    alias: 'n',
    keep: `${template}${visible.sql}`,
    bindings: [...(scope.templateId === null ? [] : [scope.templateId]), ...visible.bindings],
    selective: scope.templateId !== null || scope.sourceIds !== null,
  };
}

/** Chunks of enabled sources, of the scope's when it names some, by BM25 over their text and their source's title. */
export function chunkMatchSpec(scope: SearchScope): MatchSpec {
  return {
    fts: 'fts_chunks',
    rank: `bm25(fts_chunks, ${chunkWeights})`,
    from: 'document_chunks c CROSS JOIN sources s ON s.id = c.source_id',
    alias: 'c',
    keep: scope.sourceIds ? 's.enabled = 1 AND c.source_id IN (SELECT value FROM json_each(?))' : 's.enabled = 1',
    bindings: scope.sourceIds ? [JSON.stringify(scope.sourceIds)] : [],
    selective: scope.sourceIds !== null,
  };
}

/** Which of the nodes (by rowid) hold the quoted FTS5 term in their label. */
export async function nodesLabelled(db: Db, rowids: readonly number[], term: string): Promise<Set<number>> {
  if (!rowids.length) return new Set();
  const rows = (await db.raw(
    'SELECT rowid FROM fts_nodes WHERE fts_nodes MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
    [`label : ${term}`, JSON.stringify(rowids)],
  )) as { rowid: number }[];
  return new Set(rows.map((row) => row.rowid));
}
