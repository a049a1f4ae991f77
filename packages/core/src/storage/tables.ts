/** A migration applied to a database (knex's own bookkeeping table, read by the migrator). */
export interface MigrationRow {
  id: number;
  name: string;
  batch: number;
  /** Written as a Date, read back as the stored text. */
  migration_time: Date | string;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    knex_migrations: MigrationRow;
  }
}
