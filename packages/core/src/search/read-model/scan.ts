import { perDialect, selectRows, type Db } from '../../storage/index.ts';

/** Rows read per statement when a table is loaded into an in-memory graph. */
const batchRows = 50_000;

/** One column of a batch as the text of a JSON array, in the batch's order (`r`). */
const jsonArrayOf = perDialect<[column: string], string>({
  sqlite: (_db, column) => `json_group_array(${column})`,
  postgres: (_db, column) => `json_agg(${column} ORDER BY r)::text`,
});

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
  const arrays = columns.map((column) => `${jsonArrayOf(db, column)} AS ${column}`).join(', ');
  for (let after = Number.MIN_SAFE_INTEGER; ;) {
    const [batch] = await selectRows<Record<string, string | number | null>>(
      db,
      `SELECT ${arrays}, max(r) AS last, count(*) AS n FROM (${rows}) AS batch`,
      [after, batchRows],
    );
    if (!batch || !batch.n) return;
    visit(columns.map((column) => JSON.parse(batch[column] as string) as string[]));
    after = batch.last as number;
    if ((batch.n as number) < batchRows) return;
  }
}
