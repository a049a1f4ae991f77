import knex, { type Knex } from 'knex';
import pg from 'pg';
import type { Db } from '../connection.ts';
import { quoteIdentifier, schemaOf, systemSchema } from './identifiers.ts';
import { SchemaBoundPostgresClient } from './schema-bound-client.ts';
import { serverUnavailable } from './unavailable.ts';

const bool = 16;
const int8 = 20;
const numeric = 1700;

/**
 * Counts, sums and 64-bit columns arrive as numbers, as they do from SQLite: pg's default (strings, so no
 * value above 2^53 loses digits) would turn every integer column the modules read into a string. No
 * Rhizome value comes near 2^53. Booleans arrive as SQLite stores them, 1 and 0: the modules' rows type
 * them as numbers and compare them with 1.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8 || oid === numeric
      ? (value: string) => Number(value)
      : oid === bool
        ? (value: string) => (value === 't' ? 1 : 0)
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresServerOptions {
  /** Connections the pool opens at most, shared by every database of this server. */
  maxConnections?: number;
  /** A statement running longer is cancelled by the server. */
  statementTimeoutMs?: number;
}

/**
 * One PostgreSQL server and the one connection pool every Rhizome database on it shares. A database is
 * a schema; `database(name)` gives a knex bound to it whose connections set their `search_path` to it.
 */
export class PostgresServer {
  readonly pool: pg.Pool;

  constructor(
    readonly url: string,
    options: PostgresServerOptions = {},
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      statement_timeout: options.statementTimeoutMs,
      types,
    });
    // An idle connection the server drops reports here; the pool replaces it on the next checkout.
    this.pool.on('error', () => undefined);
    // A checked-out connection the server drops between two statements (a knex transaction awaiting its
    // caller, a connection just opened as the server shuts down) has no pool listener: without one its
    // 'error' would end the process. Its next statement fails and the pool discards it.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /**
   * A knex for the Rhizome database `name` (its schema need not exist yet). `directory` is the database's
   * directory under the data directory, where its files live beside the schema (the vector index caches).
   */
  database(name: string, directory?: string): Db {
    return this.schema(schemaOf(name), directory);
  }

  /** A knex for the shared schema `rhizome_system`, created when missing. */
  async system(): Promise<Db> {
    await this.createSchema(systemSchema);
    return this.schema(systemSchema);
  }

  /** Creates `schema` unless it exists; two processes starting together may both try. */
  async createSchema(schema: string): Promise<void> {
    try {
      await this.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    } catch (error) {
      // IF NOT EXISTS does not cover a concurrent CREATE of the same name: that one won.
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }

  private schema(searchPath: string, directory?: string): Db {
    return knex({ client: SchemaBoundPostgresClient, connectionPool: this.pool, searchPath, directory } as Knex.Config);
  }

  async query<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(sql, values)).rows;
    } catch (error) {
      throw serverUnavailable(error);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
