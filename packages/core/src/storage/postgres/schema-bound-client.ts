import { createRequire } from 'node:module';
import knex, { type Knex } from 'knex';
import { quoteIdentifier } from './identifiers.ts';
import { serverUnavailable } from './unavailable.ts';

const require = createRequire(import.meta.url);

interface PostgresTransaction {
  readOnly?: boolean;
  begin(connection: unknown): Promise<unknown>;
  query(connection: unknown, sql: string): Promise<unknown>;
}
type PostgresTransactionClass = new (...args: unknown[]) => PostgresTransaction;

interface PooledConnection {
  __knex__disposed?: unknown;
  /** The schema this connection's `search_path` names, set the first time a database takes it. */
  rhizomeSchema?: string;
  query(sql: string, callback: (error: Error | null) => void): void;
}

const PostgresClient = require('knex/lib/dialects/postgres') as typeof knex.Client;
const postgresQuery = (
  PostgresClient.prototype as unknown as { _query: (connection: unknown, query: unknown) => Promise<unknown> }
)._query;
const PostgresTransactionBase =
  require('knex/lib/dialects/postgres/execution/pg-transaction') as PostgresTransactionClass;

/** The first key of the advisory locks Rhizome takes; the second is the schema's hash. */
const rhizomeLockSpace = 0x52485a4d;

/**
 * What `BEGIN IMMEDIATE` gives SQLite: a transaction that may write waits, as it begins, for every other
 * writing transaction of the same database to end. The code written for SQLite reads, decides and writes
 * inside one transaction relying on no other writer coming in between ("the first move away from pending
 * wins"); under READ COMMITTED with a pool of connections that would race. A transaction-scoped advisory
 * lock keyed by the schema keeps that guarantee for every database without touching its rows, and ends
 * with the transaction. Read-only transactions take no lock, as they stay deferred on SQLite.
 */
class DatabaseLockedTransaction extends PostgresTransactionBase {
  override async begin(connection: unknown): Promise<unknown> {
    await super.begin(connection);
    if (this.readOnly === true) return undefined;
    return this.query(connection, `SELECT pg_advisory_xact_lock(${rhizomeLockSpace}, hashtext(current_schema()))`);
  }
}

/**
 * The pg client of knex for one Rhizome database over the server's shared pool: each connection it takes
 * is pointed at the database's schema (`search_path`) unless it already is, so every statement, raw SQL
 * included, reads the database's own tables unqualified.
 */
export class SchemaBoundPostgresClient extends PostgresClient {
  override async acquireConnection(): Promise<unknown> {
    let connection: PooledConnection;
    try {
      connection = (await super.acquireConnection()) as PooledConnection;
    } catch (error) {
      throw serverUnavailable(error);
    }
    const schema = (this.config as { searchPath: string }).searchPath;
    if (connection.rhizomeSchema === schema) return connection;
    try {
      await new Promise<void>((resolve, reject) =>
        connection.query(`SET search_path TO ${quoteIdentifier(schema)}`, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    } catch (error) {
      connection.__knex__disposed = error;
      await this.releaseConnection(connection);
      throw serverUnavailable(error);
    }
    connection.rhizomeSchema = schema;
    return connection;
  }

  /** Every statement's failure to reach the server answers 503 rather than 500. */
  async _query(connection: unknown, query: unknown): Promise<unknown> {
    try {
      return await postgresQuery.call(this, connection, query);
    } catch (error) {
      throw serverUnavailable(error);
    }
  }

  override transaction(...args: unknown[]): Knex.Transaction {
    return new DatabaseLockedTransaction(this, ...args) as unknown as Knex.Transaction;
  }
}
