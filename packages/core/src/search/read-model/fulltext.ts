/**
 * Search's read model of the full-text indexes: the graph's node index (`fts_nodes`, which graph writes
 * keep) and search's own chunk index (`fts_chunks`), refilled here from the sources feature's
 * `document_chunks`. Raw SQL by rowid range: an index entry shares its row's rowid.
 */
import type { Db } from '../../storage/index.ts';

const batchRows = 2_000;

/** Entries of the full-text indexes (FTS5 keeps one `_docsize` row per document). */
export async function fulltextEntries(db: Db): Promise<number> {
  const [row] = (await db.raw(
    'SELECT (SELECT COUNT(*) FROM fts_nodes_docsize) + (SELECT COUNT(*) FROM fts_chunks_docsize) AS count',
  )) as { count: number }[];
  return row.count;
}

/** Rows of the chunk and node indexes matching an FTS5 expression, each index counted up to `cap`. */
export async function fulltextMatches(db: Db, match: string, cap: number): Promise<number> {
  const rows = (await db.raw(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM fts_chunks WHERE fts_chunks MATCH ? LIMIT ?))
          + (SELECT count(*) FROM (SELECT 1 FROM fts_nodes WHERE fts_nodes MATCH ? LIMIT ?)) AS n`,
    [match, cap, match, cap],
  )) as { n: number }[];
  return rows[0]?.n ?? 0;
}

/**
 * Re-enters every chunk into the chunk index from the rows themselves (its text and its source's title, or
 * file name when it has none), one rowid range per transaction,
 * so keyword search keeps answering meanwhile and entries of chunks deleted behind the triggers go too.
 * Returns how many chunks were indexed.
 */
export async function reindexChunks(db: Db): Promise<number> {
  let chunks = 0;
  let after = 0;
  for (;;) {
    const rows = (await db.raw('SELECT rowid FROM document_chunks WHERE rowid > ? ORDER BY rowid LIMIT ?', [
      after,
      batchRows,
    ])) as { rowid: number }[];
    if (!rows.length) break;
    const last = rows[rows.length - 1].rowid;
    await db.transaction(async (trx) => {
      await trx.raw('DELETE FROM fts_chunks WHERE rowid > ? AND rowid <= ?', [after, last]);
      await trx.raw(
        `INSERT INTO fts_chunks (rowid, content, title)
         SELECT c.rowid, c.content, COALESCE(s.title, s.filename, '') FROM document_chunks c JOIN sources s ON s.id = c.source_id
         WHERE c.rowid > ? AND c.rowid <= ?`,
        [after, last],
      );
    });
    chunks += rows.length;
    after = last;
  }
  await db.raw('DELETE FROM fts_chunks WHERE rowid > ?', [after]);
  return chunks;
}
