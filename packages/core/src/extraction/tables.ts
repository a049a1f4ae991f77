import type { Knex } from 'knex';
import type { Tables } from 'knex/types/tables.js';
import type { GroupRow, JobRow } from './jobs.ts';

/** What an insert into a declared table takes. */
export type InsertRow<Table extends keyof Tables> = Knex.ResolveTableType<Tables[Table], 'insert'>;

/** The tables the extraction module owns (migration 0004): a run per source and its groups. */
declare module 'knex/types/tables.js' {
  interface Tables {
    extraction_jobs: JobRow;
    extraction_groups: GroupRow;
  }
}
