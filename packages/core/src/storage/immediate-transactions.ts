import { createRequire } from 'node:module';
import knex, { type Knex } from 'knex';

const require = createRequire(import.meta.url);

interface SqliteTransaction {
  readOnly?: boolean;
  _rejecter: (error: unknown) => void;
  query(connection: unknown, sql: string, status?: number, value?: unknown): Promise<unknown>;
}
type SqliteTransactionClass = new (...args: unknown[]) => SqliteTransaction;

const SqliteClient = require('knex/lib/dialects/sqlite3') as typeof knex.Client;
const SqliteTransactionBase =
  require('knex/lib/dialects/sqlite3/execution/sqlite-transaction') as SqliteTransactionClass;

/**
 * Every transaction takes the write lock when it begins. SQLite begins a plain `BEGIN` as a reader
 * and upgrades at the first write; if another connection (the worker process, a second connection in
 * this one) committed in between, the upgrade fails at once with SQLITE_BUSY — the busy timeout cannot
 * help, waiting would deadlock. `BEGIN IMMEDIATE` waits for the lock up front, under the busy timeout.
 * Transactions asked for as `readOnly` stay deferred: they never write and must not hold writers up.
 */
class ImmediateTransaction extends SqliteTransactionBase {
  begin(connection: unknown): Promise<unknown> {
    return this.query(connection, this.readOnly === true ? 'BEGIN DEFERRED;' : 'BEGIN IMMEDIATE;');
  }

  /**
   * After SQLITE_FULL or an I/O error SQLite has rolled the transaction back itself, so knex's ROLLBACK fails
   * with "no transaction is active": the transaction then rejects with the error that ended it, not that one.
   */
  override query(connection: unknown, sql: string, status?: number, value?: unknown): Promise<unknown> {
    if (value instanceof Error && /^ROLLBACK\b/i.test(sql)) {
      const reject = this._rejecter;
      this._rejecter = (error) => reject(/no transaction is active/.test(String(error)) ? value : error);
    }
    return super.query(connection, sql, status, value);
  }
}

/** The sqlite3 client of knex with transactions that begin `IMMEDIATE`. */
export class ImmediateSqliteClient extends SqliteClient {
  override transaction(...args: unknown[]): Knex.Transaction {
    return new ImmediateTransaction(this, ...args) as unknown as Knex.Transaction;
  }
}
