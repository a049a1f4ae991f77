import { perDialect, type Dialect } from './dialect.ts';

/**
 * Runs the `CREATE … IF NOT EXISTS` script of the dialect the handle speaks, one statement at a time
 * (statements end with `;` and hold none inside), for tables kept outside the databases' revisions
 * (the system tables every process opens). On PostgreSQL the script runs in one transaction, which
 * queues processes starting together (IF NOT EXISTS does not cover a concurrent CREATE of the same table).
 */
export const createTables = perDialect<[scripts: Record<Dialect, string>], Promise<void>>({
  sqlite: async (db, scripts) => {
    for (const statement of statementsOf(scripts.sqlite)) await db.raw(statement);
  },
  postgres: (db, scripts) =>
    db.transaction(async (trx) => {
      for (const statement of statementsOf(scripts.postgres)) await trx.raw(statement);
    }),
});

function statementsOf(script: string): string[] {
  return script
    .split(';')
    .map((sql) => sql.trim())
    .filter(Boolean);
}
