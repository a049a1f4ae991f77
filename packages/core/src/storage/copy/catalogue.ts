import type { Db } from '../connection.ts';
import { perDialect, selectRows } from '../dialect.ts';

/** One table of a database as the copy sees it, read from the database's own catalogue. */
export interface TableShape {
  name: string;
  /**
   * The columns holding data, `rowid` among them where the table has one the modules key by: SQLite's
   * implicit rowid (not when an INTEGER PRIMARY KEY names it), PostgreSQL's declared `rowid` column.
   * Columns derived in the database (PostgreSQL's `tsvector` documents) are left out.
   */
  columns: string[];
  /** The primary key (SQLite: the rowid where the table has one), the order batches are read in. */
  key: string[];
  /** Tables this one's foreign keys name, itself excluded. */
  parents: string[];
  /** Foreign keys to its own rows (a nested workflow execution's parent). */
  selfReferences: boolean;
  /** A column counting up by itself (SQLite AUTOINCREMENT, PostgreSQL identity or serial), and its high-water mark. */
  counter: { column: string; value: number } | null;
  /** Whether rows say they are the system's (`is_system`): seeded, not the user's. */
  systemRows: boolean;
  /** A full-text table: its document is made from its text by the database. */
  fullText: boolean;
}

/** Knex's bookkeeping, which each side keeps for itself at the head revision. */
const bookkeeping = /^knex_/;

export const readCatalogue: (db: Db) => Promise<TableShape[]> = perDialect({
  sqlite: sqliteCatalogue,
  postgres: postgresCatalogue,
});

async function sqliteCatalogue(db: Db): Promise<TableShape[]> {
  const tables = await selectRows<{ name: string; sql: string }>(
    db,
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
  );
  const virtual = tables.filter((table) => /^CREATE VIRTUAL TABLE/i.test(table.sql)).map((table) => table.name);
  // FTS5 keeps each index in shadow tables named after it; the index is written through the virtual table.
  const shadow = new Set(
    virtual.flatMap((name) => ['data', 'idx', 'content', 'docsize', 'config'].map((part) => `${name}_${part}`)),
  );
  const counters = new Map(
    (await selectRows<{ name: string; seq: number }>(db, 'SELECT name, seq FROM sqlite_sequence').catch(() => [])).map(
      (row) => [row.name, Number(row.seq)],
    ),
  );
  const shapes: TableShape[] = [];
  for (const { name, sql } of tables) {
    if (bookkeeping.test(name) || shadow.has(name)) continue;
    const columns = await selectRows<{ name: string; type: string; pk: number }>(
      db,
      'SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid',
      [name],
    );
    const keyColumns = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
    const integerKey =
      keyColumns.length === 1 && keyColumns[0].type.toUpperCase() === 'INTEGER' ? keyColumns[0].name : null;
    const hasRowid = !/\bWITHOUT\s+ROWID\b/i.test(sql) && integerKey === null;
    const foreign = await selectRows<{ table: string }>(db, 'SELECT "table" FROM pragma_foreign_key_list(?)', [name]);
    const autoincrement = /\bAUTOINCREMENT\b/i.test(sql) && integerKey !== null;
    shapes.push({
      name,
      columns: [...(hasRowid ? ['rowid'] : []), ...columns.map((column) => column.name)],
      key: hasRowid ? ['rowid'] : integerKey ? [integerKey] : keyColumns.map((column) => column.name),
      parents: [...new Set(foreign.map((row) => row.table).filter((table) => table !== name))],
      selfReferences: foreign.some((row) => row.table === name),
      counter: autoincrement ? { column: integerKey!, value: counters.get(name) ?? 0 } : null,
      systemRows: columns.some((column) => column.name === 'is_system'),
      fullText: virtual.includes(name),
    });
  }
  return shapes;
}

async function postgresCatalogue(db: Db): Promise<TableShape[]> {
  const columns = await selectRows<{ table: string; column: string; type: string; counted: boolean }>(
    db,
    `SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type,
            (c.is_identity = 'YES' OR c.column_default LIKE 'nextval(%') AS counted
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const keys = await selectRows<{ table: string; column: string }>(
    db,
    `SELECT t.relname AS table, a.attname AS column
     FROM pg_index i
     JOIN pg_class t ON t.oid = i.indrelid
     JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position) ON true
     JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
     WHERE i.indisprimary AND t.relnamespace = current_schema()::regnamespace
     ORDER BY t.relname, k.position`,
  );
  const foreign = await selectRows<{ table: string; parent: string }>(
    db,
    `SELECT t.relname AS table, p.relname AS parent
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class p ON p.oid = c.confrelid
     WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  const byTable = new Map<string, typeof columns>();
  for (const column of columns) {
    if (bookkeeping.test(column.table)) continue;
    byTable.set(column.table, [...(byTable.get(column.table) ?? []), column]);
  }
  const shapes: TableShape[] = [];
  for (const [name, tableColumns] of [...byTable].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const counted = tableColumns.find((column) => column.counted);
    let counter: TableShape['counter'] = null;
    if (counted) {
      // Null until the sequence first handed out a value.
      const [state] = await selectRows<{ value: number | null }>(
        db,
        'SELECT pg_sequence_last_value(pg_get_serial_sequence(?, ?)::regclass) AS value',
        [quoted(name), counted.column],
      );
      counter = { column: counted.column, value: Number(state?.value ?? 0) };
    }
    const parents = foreign.filter((row) => row.table === name).map((row) => row.parent);
    shapes.push({
      name,
      columns: tableColumns.filter((column) => column.type !== 'tsvector').map((column) => column.column),
      key: keys.filter((row) => row.table === name).map((row) => row.column),
      parents: [...new Set(parents.filter((parent) => parent !== name))],
      selfReferences: parents.includes(name),
      counter,
      systemRows: tableColumns.some((column) => column.column === 'is_system'),
      fullText: tableColumns.some((column) => column.type === 'tsvector'),
    });
  }
  return shapes;
}

/** A double-quoted identifier, as both dialects read it. */
export function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** A column name in SQL: SQLite's implicit rowid stays a bare name (quoted, it would name a column). */
export function columnSql(column: string): string {
  return column === 'rowid' ? 'rowid' : quoted(column);
}

/** The tables in an order where each comes after the tables its foreign keys name. */
export function dependencyOrder(tables: TableShape[]): TableShape[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: TableShape) => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name)) throw new Error(`the foreign keys of ${table.name} form a cycle`);
    visiting.add(table.name);
    for (const parent of table.parents) {
      const shape = byName.get(parent);
      if (shape) place(shape);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}
