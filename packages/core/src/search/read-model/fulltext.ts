/**
 * Search's read model of the full-text indexes: the graph's node index (`fts_nodes`, which graph writes
 * keep) and search's own chunk index (`fts_chunks`), refilled here from the sources feature's
 * `document_chunks`. Raw SQL by rowid range: an index entry shares its row's rowid.
 */
import { selectRows, type Db } from '../../storage/index.ts';
import { fulltextSql } from './fulltext-sql.ts';

const batchRows = 2_000;

/** Entries of the full-text indexes. */
export async function fulltextEntries(db: Db): Promise<number> {
  const [row] = await selectRows<{ count: number }>(db, fulltextSql(db).entries);
  return row.count;
}

/** Rows of the chunk and node indexes matching a MATCH expression `ftsQuery` made, each index counted up to `cap`. */
export async function fulltextMatches(db: Db, match: string, cap: number): Promise<number> {
  const sql = fulltextSql(db);
  const query = sql.query(match);
  const rows = await selectRows<{ n: number }>(
    db,
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${sql.source('fts_chunks')} WHERE ${sql.matches('fts_chunks')} LIMIT ?) AS chunks)
          + (SELECT count(*) FROM (SELECT 1 FROM ${sql.source('fts_nodes')} WHERE ${sql.matches('fts_nodes')} LIMIT ?) AS nodes) AS n`,
    [query, cap, query, cap],
  );
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
    const rows = await selectRows<{ rowid: number }>(
      db,
      'SELECT rowid FROM document_chunks WHERE rowid > ? ORDER BY rowid LIMIT ?',
      [after, batchRows],
    );
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
