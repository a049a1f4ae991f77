/**
 * The SQL of full-text search in each dialect: FTS5 tables matched with MATCH and ranked by bm25() on
 * SQLite, `tsvector` tables matched with `@@` and ranked by `ts_rank_cd` on PostgreSQL. Names the graph's
 * node index (`fts_nodes`) and search's chunk index (`fts_chunks`) and the rows they index.
 */
import { perDialect } from '../../storage/index.ts';
import { tsqueryOf } from '../tsquery.ts';

export type FulltextTable = 'fts_nodes' | 'fts_chunks';

export interface FulltextSql {
  /**
   * The FROM item of index `fts` for a match. The match's one binding is the first of every statement
   * built from these pieces (on SQLite it sits in `matches`, on PostgreSQL here).
   */
  source(fts: FulltextTable): string;
  /** The predicate keeping the rows of `fts` that match. */
  matches(fts: FulltextTable): string;
  /**
   * How well a row of `fts` matches: negative, lower is better. A node's label counts three times its
   * properties, a chunk's source title three times its text (the title field of BM25F: the title names
   * what the whole source is about, so every chunk of it is about that too).
   */
  rank(fts: FulltextTable): string;
  /** The bound value of a MATCH expression `ftsQuery` made; `labelsOnly` finds its terms in node labels only. */
  query(expression: string, labelsOnly?: boolean): string;
  /** Entries of both indexes together, as `count`. */
  entries: string;
  /** Chunk rows `c` joined to their sources `s`, keeping the chunk as the outer loop where the planner listens. */
  chunkRows: string;
}

/** bm25() column weights: fts_nodes (node_id, label, body) and fts_chunks (content, title). */
const bm25Weights: Record<FulltextTable, string> = { fts_nodes: '0, 3.0, 1.0', fts_chunks: '1.0, 3.0' };

const sqlite: FulltextSql = {
  source: (fts) => fts,
  matches: (fts) => `${fts} MATCH ?`,
  rank: (fts) => `bm25(${fts}, ${bm25Weights[fts]})`,
  query: (expression, labelsOnly = false) => (labelsOnly ? `label : ${expression}` : expression),
  // FTS5 keeps one `_docsize` row per document.
  entries: 'SELECT (SELECT COUNT(*) FROM fts_nodes_docsize) + (SELECT COUNT(*) FROM fts_chunks_docsize) AS count',
  chunkRows: 'document_chunks c CROSS JOIN sources s ON s.id = c.source_id',
};

/**
 * Label and title are weight A, properties and text D: `ts_rank_cd`'s weights (D, C, B, A) give A three
 * times D, as the bm25() weights do. Normalisation 1 divides by the log of the document's length.
 */
const postgres: FulltextSql = {
  source: (fts) => `${fts} CROSS JOIN to_tsquery('english', ?) AS q`,
  matches: (fts) => `${fts}.document @@ q`,
  rank: (fts) => `-ts_rank_cd('{0.333333, 0.2, 0.4, 1.0}', ${fts}.document, q, 1)`,
  query: (expression, labelsOnly = false) => tsqueryOf(expression, labelsOnly ? 'A' : ''),
  entries: 'SELECT (SELECT COUNT(*) FROM fts_nodes) + (SELECT COUNT(*) FROM fts_chunks) AS count',
  chunkRows: 'document_chunks c JOIN sources s ON s.id = c.source_id',
};

/** The full-text SQL of the dialect `db` speaks. */
export const fulltextSql = perDialect({ sqlite: () => sqlite, postgres: () => postgres });
