import type { GroupRow, JobRow } from './jobs.ts';

/** The tables the extraction module owns (migration 0004): a run per source and its groups. */
declare module 'knex/types/tables.js' {
  interface Tables {
    extraction_jobs: JobRow;
    extraction_groups: GroupRow;
  }
}
