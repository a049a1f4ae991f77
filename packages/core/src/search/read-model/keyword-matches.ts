/**
 * Search's read model for keyword search: what a full-text match is ranked in and filtered by. Names the
 * graph's `graph_nodes`, `node_sources` and node full-text index (`fts_nodes`), the sources feature's
 * `document_chunks` and `sources`, and search's own `fts_chunks`, as SQL fragments `keyword.ts` runs:
 * the ranking and the visibility filter must run inside one statement to stop at `limit`.
 */
import { jsonArrayValues, selectRows, type Db } from '../../storage/index.ts';
import type { SearchScope } from '../types.ts';
import { fulltextSql, type FulltextTable } from './fulltext-sql.ts';

/**
 * Which nodes a search may return, as a predicate on alias `n` with its bindings. A node's sources are
 * the ones that contributed it (`node_sources`, written by extraction) plus the row's own `source_id`
 * (a node created with one, which the canvas hides with that source too). A node with no source at all
 * was made by hand and is always visible; otherwise at least one of its sources must be enabled, and,
 * when the scope names sources, be one of them.
 */
function nodeVisibility(db: Db, scope: SearchScope): { sql: string; bindings: string[] } {
  if (scope.sourceIds) {
    const ids = JSON.stringify(scope.sourceIds);
    return {
      sql: `(EXISTS (SELECT 1 FROM sources s WHERE s.id = n.source_id AND s.enabled = TRUE AND s.id IN (${jsonArrayValues(db)}))
        OR EXISTS (SELECT 1 FROM node_sources ns JOIN sources s ON s.id = ns.source_id
                   WHERE ns.node_id = n.id AND s.enabled = TRUE AND ns.source_id IN (${jsonArrayValues(db)})))`,
      bindings: [ids, ids],
    };
  }
  return {
    sql: `((n.source_id IS NULL AND NOT EXISTS (SELECT 1 FROM node_sources ns WHERE ns.node_id = n.id))
      OR EXISTS (SELECT 1 FROM sources s WHERE s.id = n.source_id AND s.enabled = TRUE)
      OR EXISTS (SELECT 1 FROM node_sources ns JOIN sources s ON s.id = ns.source_id WHERE ns.node_id = n.id AND s.enabled = TRUE))`,
    bindings: [],
  };
}

/** How to rank one full-text table and keep only the rows a search may return. */
export interface MatchSpec {
  /** The full-text table, whose rowid is the rowid of the row table. */
  fts: FulltextTable;
  /** The row table as `table alias`, with any table joined to it for the filter. */
  from: string;
  alias: string;
  /** Predicate on the row alias that a returned row must pass, and its bindings. */
  keep: string;
  bindings: string[];
  /** The filter may keep a small share of the matches (a scope): skip straight to the joined query. */
  selective: boolean;
}

/** Nodes: the scope's template and sources. */
export function nodeMatchSpec(db: Db, scope: SearchScope): MatchSpec {
  const visible = nodeVisibility(db, scope);
  const template = scope.templateId === null ? '' : 'n.template_id = ? AND ';
  return {
    fts: 'fts_nodes',
    from: 'graph_nodes n',
    alias: 'n',
    keep: `${template}${visible.sql}`,
    bindings: [...(scope.templateId === null ? [] : [scope.templateId]), ...visible.bindings],
    selective: scope.templateId !== null || scope.sourceIds !== null,
  };
}

/** Chunks of enabled sources, of the scope's when it names some, over their text and their source's title. */
export function chunkMatchSpec(db: Db, scope: SearchScope): MatchSpec {
  return {
    fts: 'fts_chunks',
    from: fulltextSql(db).chunkRows,
    alias: 'c',
    keep: scope.sourceIds ? `s.enabled = TRUE AND c.source_id IN (${jsonArrayValues(db)})` : 's.enabled = TRUE',
    bindings: scope.sourceIds ? [JSON.stringify(scope.sourceIds)] : [],
    selective: scope.sourceIds !== null,
  };
}

/** Which of the nodes (by rowid) hold the quoted term (as `ftsQuery` makes it) in their label. */
export async function nodesLabelled(db: Db, rowids: readonly number[], term: string): Promise<Set<number>> {
  if (!rowids.length) return new Set();
  const sql = fulltextSql(db);
  const rows = await selectRows<{ rowid: number }>(
    db,
    `SELECT rowid FROM ${sql.source('fts_nodes')} WHERE ${sql.matches('fts_nodes')} AND rowid IN (${jsonArrayValues(db, 'integer')})`,
    [sql.query(term, true), JSON.stringify(rowids)],
  );
  return new Set(rows.map((row) => row.rowid));
}
