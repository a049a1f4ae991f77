import type { Db } from './connection.ts';

/** How many rows of `table` match `where` (all of them by default). */
export async function countRows(db: Db, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const row = (await db(table).where(where).count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}
