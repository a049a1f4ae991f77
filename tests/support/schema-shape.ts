import type { Knex } from 'knex';

/** One table as both dialects can describe it: column classes, keys, indexes by columns, foreign keys. */
export interface TableShape {
  columns: Record<string, { type: string; notNull: boolean }>;
  primaryKey: string[];
  /** `unique? (col, col)`, sorted. */
  indexes: string[];
  /** `(col) -> table(col) ON DELETE action`, sorted. */
  foreignKeys: string[];
}
export type SchemaShape = Record<string, TableShape>;

const fts5Shadows = ['data', 'idx', 'content', 'docsize', 'config'];

/** SQLite's declared types by affinity; FTS5 columns carry none and hold text. */
function sqliteClass(declared: string): string {
  const type = declared.toLowerCase();
  if (type === '' || /char|clob|text|datetime/.test(type)) return 'text';
  if (type.includes('int')) return 'integer';
  if (/real|floa|doub/.test(type)) return 'real';
  if (type.includes('bool')) return 'boolean';
  if (type.includes('blob')) return 'binary';
  return type;
}

const postgresClasses: Record<string, string> = {
  bigint: 'integer',
  integer: 'integer',
  smallint: 'integer',
  text: 'text',
  'character varying': 'text',
  'double precision': 'real',
  real: 'real',
  boolean: 'boolean',
  bytea: 'binary',
};

const indexKey = (unique: boolean, columns: string[]) => `${unique ? 'unique ' : ''}(${columns.join(', ')})`;

/** The head schema of a SQLite database, from its own catalogue (knex's bookkeeping and FTS5's shadow tables left out). */
export async function sqliteShape(db: Knex): Promise<SchemaShape> {
  const tables = (await db.raw(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'knex_%'",
  )) as { name: string; sql: string }[];
  const virtual = tables.filter((table) => /^CREATE VIRTUAL TABLE/i.test(table.sql)).map((table) => table.name);
  const shadows = new Set(virtual.flatMap((name) => fts5Shadows.map((suffix) => `${name}_${suffix}`)));
  const shape: SchemaShape = {};
  for (const { name } of tables.filter((table) => !shadows.has(table.name))) {
    const columns = (await db.raw(`PRAGMA table_info(${name})`)) as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }[];
    const indexList = (await db.raw(`PRAGMA index_list(${name})`)) as {
      name: string;
      unique: number;
      origin: string;
    }[];
    const indexes: string[] = [];
    for (const index of indexList.filter((entry) => entry.origin !== 'pk')) {
      const info = (await db.raw(`PRAGMA index_info(${index.name})`)) as { seqno: number; name: string }[];
      indexes.push(
        indexKey(
          index.unique === 1,
          info.sort((a, b) => a.seqno - b.seqno).map((entry) => entry.name),
        ),
      );
    }
    const keys = (await db.raw(`PRAGMA foreign_key_list(${name})`)) as {
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }[];
    const byId = new Map<number, typeof keys>();
    for (const key of keys) byId.set(key.id, [...(byId.get(key.id) ?? []), key]);
    shape[name] = {
      columns: Object.fromEntries(
        columns.map((column) => [
          column.name,
          { type: sqliteClass(column.type), notNull: column.notnull === 1 || column.pk > 0 },
        ]),
      ),
      primaryKey: columns
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name),
      indexes: indexes.sort(),
      foreignKeys: [...byId.values()]
        .map((parts) => {
          const ordered = parts.sort((a, b) => a.seq - b.seq);
          return `(${ordered.map((part) => part.from).join(', ')}) -> ${ordered[0].table}(${ordered.map((part) => part.to).join(', ')}) ON DELETE ${ordered[0].on_delete.toUpperCase()}`;
        })
        .sort(),
    };
  }
  return shape;
}

const deleteActions: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/**
 * The head schema of one PostgreSQL schema, from the server's catalogue. Two kinds of column stand for
 * what SQLite keeps out of sight and are left out with the keys and indexes over them: `rowid` (SQLite's
 * implicit rowid) and `tsvector` columns (the index FTS5 keeps inside its virtual table).
 */
export async function postgresShape(db: Knex, schema: string): Promise<SchemaShape> {
  const { rows: columns } = (await db.raw(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = ? AND table_name NOT LIKE 'knex\\_%' ORDER BY table_name, ordinal_position`,
    [schema],
  )) as { rows: { table_name: string; column_name: string; data_type: string; is_nullable: string }[] };
  const hidden = new Set(
    columns
      .filter((column) => column.column_name === 'rowid' || column.data_type === 'tsvector')
      .map((column) => `${column.table_name}.${column.column_name}`),
  );
  const visible = (table: string, names: string[]) => names.every((name) => !hidden.has(`${table}.${name}`));
  const shape: SchemaShape = {};
  for (const column of columns) {
    shape[column.table_name] ??= { columns: {}, primaryKey: [], indexes: [], foreignKeys: [] };
    if (hidden.has(`${column.table_name}.${column.column_name}`)) continue;
    shape[column.table_name].columns[column.column_name] = {
      type: postgresClasses[column.data_type] ?? column.data_type,
      notNull: column.is_nullable === 'NO',
    };
  }
  const { rows: indexes } = (await db.raw(
    `SELECT t.relname AS table, i.indisprimary AS primary, i.indisunique AS unique,
            array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
     WHERE s.nspname = ?`,
    [schema],
  )) as { rows: { table: string; primary: boolean; unique: boolean; columns: string[] }[] };
  for (const index of indexes) {
    const table = shape[index.table];
    if (!table || !visible(index.table, index.columns)) continue;
    if (index.primary) table.primaryKey = index.columns;
    else table.indexes.push(indexKey(index.unique, index.columns));
  }
  const { rows: keys } = (await db.raw(
    `SELECT t.relname AS table, r.relname AS target, c.confdeltype AS action,
            array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS from,
            array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS to
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
     JOIN pg_namespace s ON s.oid = t.relnamespace WHERE c.contype = 'f' AND s.nspname = ?`,
    [schema],
  )) as { rows: { table: string; target: string; action: string; from: string[]; to: string[] }[] };
  for (const key of keys) {
    shape[key.table]?.foreignKeys.push(
      `(${key.from.join(', ')}) -> ${key.target}(${key.to.join(', ')}) ON DELETE ${deleteActions[key.action]}`,
    );
  }
  for (const table of Object.values(shape)) {
    table.indexes.sort();
    table.foreignKeys.sort();
  }
  return shape;
}

/** Every difference between the two dialects' schemas, one line each: none when they agree. */
export function shapeDifferences(sqlite: SchemaShape, postgres: SchemaShape): string[] {
  const differences: string[] = [];
  for (const name of new Set([...Object.keys(sqlite), ...Object.keys(postgres)])) {
    const [left, right] = [sqlite[name], postgres[name]];
    if (!left || !right) {
      differences.push(`table ${name}: missing on ${left ? 'postgres' : 'sqlite'}`);
      continue;
    }
    for (const column of new Set([...Object.keys(left.columns), ...Object.keys(right.columns)])) {
      const [a, b] = [left.columns[column], right.columns[column]];
      if (JSON.stringify(a) !== JSON.stringify(b))
        differences.push(`${name}.${column}: sqlite ${JSON.stringify(a)}, postgres ${JSON.stringify(b)}`);
    }
    for (const part of ['primaryKey', 'indexes', 'foreignKeys'] as const) {
      if (JSON.stringify(left[part]) !== JSON.stringify(right[part]))
        differences.push(
          `${name} ${part}: sqlite ${JSON.stringify(left[part])}, postgres ${JSON.stringify(right[part])}`,
        );
    }
  }
  return differences;
}
