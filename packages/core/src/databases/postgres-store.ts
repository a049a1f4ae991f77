import type { DataPaths } from '../paths.ts';
import {
  postgresBackups,
  quoteIdentifier,
  restoreSchema,
  schemaOf,
  schemaPrefix,
  systemSchema,
  type Db,
  type PostgresServer,
} from '../storage/index.ts';
import type { DatabaseInfo, DatabaseStore } from './store.ts';

/** PostgreSQL names hold 63 bytes; past that it cuts them, and two databases could share a schema. */
const longestSchemaName = 63;

/** The tables whose rows carry `updated_at`: the latest of them is when the database last changed. */
const changedTables = ['sources', 'graph_nodes', 'graph_edges', 'graph_templates'];

/**
 * Every database a schema `rhizome_<name>` of one PostgreSQL server, all sharing the server's pool. The
 * database's directory under the data directory still holds its files (originals, the vector index
 * cache, backups). Sizes are the server's: every table, index and TOAST table of the schema.
 */
export class PostgresDatabaseStore implements DatabaseStore {
  private catalogue = new Map<string, { size: number; lastModified: string | null }>();

  constructor(
    private readonly server: PostgresServer,
    private readonly paths: DataPaths,
  ) {}

  describe(name: string): DatabaseInfo | null {
    const entry = this.catalogue.get(name);
    if (entry === undefined) return null;
    const { size, lastModified } = entry;
    return { name, path: this.paths.databaseDir(name), exists: true, size, last_modified: lastModified };
  }

  names(): string[] {
    return [...this.catalogue.keys()];
  }

  async refresh(): Promise<void> {
    const rows = await this.server.query<{ schema: string; size: number }>(
      `SELECT n.nspname AS schema, COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS size
       FROM pg_namespace n LEFT JOIN pg_class c ON c.relnamespace = n.oid AND c.relkind IN ('r', 'm')
       WHERE starts_with(n.nspname, $1) AND n.nspname <> $2 GROUP BY n.nspname`,
      [schemaPrefix, systemSchema],
    );
    const changed = await this.lastChanges(rows.map((row) => row.schema));
    this.catalogue = new Map(
      rows.map((row) => [
        row.schema.slice(schemaPrefix.length),
        { size: Number(row.size), lastModified: changed.get(row.schema) ?? null },
      ]),
    );
  }

  /**
   * When each schema's data last changed, as SQLite's file time says for a file: the latest `updated_at`
   * of its sources, nodes, edges and templates, in two statements for all schemas. A schema without
   * those tables yet has no entry.
   */
  private async lastChanges(schemas: string[]): Promise<Map<string, string>> {
    const present = await this.server.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_schema = ANY($1) AND table_name = ANY($2)`,
      [schemas, changedTables],
    );
    if (!present.length) return new Map();
    const latest = present
      .map(
        ({ table_schema, table_name }, index) =>
          `SELECT $${index + 1}::text AS schema, max(updated_at) AS at FROM ${quoteIdentifier(table_schema)}.${quoteIdentifier(table_name)}`,
      )
      .join(' UNION ALL ');
    const rows = await this.server.query<{ schema: string; at: string | null }>(
      `SELECT schema, max(at) AS at FROM (${latest}) AS changes GROUP BY schema`,
      present.map((table) => table.table_schema),
    );
    return new Map(rows.flatMap((row) => (row.at ? [[row.schema, new Date(row.at).toISOString()] as const] : [])));
  }

  refusal(name: string): string | null {
    if (schemaOf(name) === systemSchema)
      return `'${name}' is reserved on PostgreSQL: the schema ${systemSchema} holds what every database shares`;
    const longest = longestSchemaName - schemaPrefix.length;
    return Buffer.byteLength(name) > longest
      ? `Database names have at most ${longest} characters on PostgreSQL (the schema rhizome_<name> holds 63)`
      : null;
  }

  async open(name: string): Promise<Db> {
    await this.server.createSchema(schemaOf(name));
    await this.refresh();
    return this.server.database(name, this.paths.databaseDir(name));
  }

  bulkWriter(_name: string, main: Db): Db {
    return main;
  }

  async drop(name: string): Promise<void> {
    await this.server.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schemaOf(name))} CASCADE`);
    await this.refresh();
  }

  backups(name: string) {
    return postgresBackups(this.server.url, schemaOf(name));
  }

  async restore(name: string, backup: string): Promise<void> {
    await restoreSchema(this.server.url, schemaOf(name), backup);
    await this.refresh();
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
