import type { PromptRow } from './attempts/prompts.ts';
import type { AttemptRow } from './attempts/store.ts';
import type { GroupRow, JobRow } from './jobs.ts';
import type { RecoveryEventRow } from './recovery-events.ts';

/** The tables the extraction module owns: a run per source and its groups (0004), each group's attempts and the recovery events (0020), each job's prompt record (0023). */
declare module 'knex/types/tables.js' {
  interface Tables {
    extraction_jobs: JobRow;
    extraction_groups: GroupRow;
    extraction_attempts: AttemptRow;
    extraction_prompts: PromptRow;
    recovery_events: RecoveryEventRow;
  }
}
