import type { Knex } from 'knex';

/** The SQL dialects a Rhizome database is stored in. */
export type Dialect = 'sqlite' | 'postgres';

/** The dialect a handle (a database's knex, one of its transactions, or a query of either) speaks. */
export function dialectOf(db: Pick<Knex, 'client'>): Dialect {
  return (db.client as { dialect: string }).dialect === 'postgresql' ? 'postgres' : 'sqlite';
}

/**
 * One function with an implementation per dialect: each call runs the one the handle it is given speaks.
 * Repositories put their differing statements behind it, so callers (services, tasks, transactions they
 * pass on) never ask which dialect they are on.
 */
export function perDialect<Args extends unknown[], Result>(
  implementations: Record<Dialect, (db: Knex, ...args: Args) => Result>,
): (db: Knex, ...args: Args) => Result {
  return (db, ...args) => implementations[dialectOf(db)](db, ...args);
}

/** The rows a raw SELECT returns: an array from sqlite3, a result whose `rows` they are from pg. */
export async function selectRows<Row>(
  db: Knex,
  sql: string,
  bindings: readonly Knex.RawBinding[] | Knex.ValueDict = [],
): Promise<Row[]> {
  const result = (await db.raw(sql, bindings)) as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

/**
 * A subquery of the values of one bound JSON array, for `column IN (…)`: a list of ids bound as one
 * parameter whatever its length. PostgreSQL gives the elements as text; `integer` casts them (rowids).
 */
export const jsonArrayValues = perDialect<[type?: 'text' | 'integer'], string>({
  sqlite: () => 'SELECT value FROM json_each(?)',
  postgres: (_db, type = 'text') =>
    type === 'integer'
      ? 'SELECT value::bigint FROM json_array_elements_text(?::json) AS value'
      : 'SELECT json_array_elements_text(?::json)',
});

/** Runs `INSERT <into>`, skipping the rows a unique key already holds. */
export const insertIgnoringDuplicates = perDialect<
  [into: string, bindings: readonly Knex.RawBinding[]],
  Promise<unknown>
>({
  sqlite: (db, into, bindings) => db.raw(`INSERT OR IGNORE ${into}`, bindings),
  postgres: (db, into, bindings) => db.raw(`INSERT ${into} ON CONFLICT DO NOTHING`, bindings),
});

/**
 * Rowids for `count` rows of `table` inserted again whose old rowid another row took: null lets SQLite
 * choose a free one; PostgreSQL's identity column refuses null, so its sequence hands out the next ones.
 */
export const freshRowids = perDialect<[table: string, count: number], Promise<(number | null)[]>>({
  sqlite: async (_db, _table, count) => new Array<null>(count).fill(null),
  postgres: async (db, table, count) =>
    (
      await selectRows<{ rowid: number }>(
        db,
        "SELECT nextval(pg_get_serial_sequence(?, 'rowid')) AS rowid FROM generate_series(1, ?)",
        [table, count],
      )
    ).map((row) => row.rowid),
});

/** A key naming the database a handle reaches, for caches shared by every database of a process: its file, or its schema. */
export const databaseKey = perDialect<[], string>({
  sqlite: (db) => (db.client as { config?: { connection?: { filename?: string } } }).config?.connection?.filename ?? '',
  postgres: (db) => (db.client as { config?: { searchPath?: string } }).config?.searchPath ?? '',
});

/** A LIKE pattern matching any text that contains `text`, its `%`, `_` and `\` taken literally (see caselessLike). */
export function containingPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}

/**
 * `column` matches the LIKE `pattern` (`\` escaping), ignoring (ASCII) case on both dialects: SQLite's
 * LIKE ignores it, PostgreSQL's matches case exactly and its ILIKE does not.
 */
export const caselessLike = perDialect<[column: string, pattern: string], Knex.Raw>({
  sqlite: (db, column, pattern) => db.raw(`?? LIKE ? ESCAPE '\\'`, [column, pattern]),
  postgres: (db, column, pattern) => db.raw(`?? ILIKE ? ESCAPE '\\'`, [column, pattern]),
});
