import type { Db } from '../../storage/index.ts';

/** Rows read per statement when a table is loaded into an in-memory graph. */
const batchRows = 50_000;

/**
 * Reads a table into memory `batchRows` rows at a time, each batch as one statement returning one JSON
 * array per column (no row objects: at a million rows that is most of the load's cost). `rows` is a
 * SELECT yielding `r` (the rowid to page by) and `columns`, with `WHERE <r> > ? ORDER BY <r> LIMIT ?`.
 */
export async function scanColumns(
  db: Db,
  rows: string,
  columns: readonly string[],
  visit: (values: string[][]) => void,
): Promise<void> {
  const arrays = columns.map((column) => `json_group_array(${column}) AS ${column}`).join(', ');
  for (let after = Number.MIN_SAFE_INTEGER; ;) {
    const [batch] = (await db.raw(`SELECT ${arrays}, max(r) AS last, count(*) AS n FROM (${rows})`, [
      after,
      batchRows,
    ])) as Record<string, string | number | null>[];
    if (!batch || !batch.n) return;
    visit(columns.map((column) => JSON.parse(batch[column] as string) as string[]));
    after = batch.last as number;
    if ((batch.n as number) < batchRows) return;
  }
}
