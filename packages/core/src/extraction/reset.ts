import type { Db } from '../storage/index.ts';

export interface ClearedProcessingState {
  extraction_jobs_deleted: number;
  staged_groups_deleted: number;
  extraction_attempts_deleted: number;
  recovery_events_deleted: number;
}

/**
 * Deletes every extraction run with its staged groups, the per-chunk attempts and the recovery events.
 * What runs committed (the graph and its citations) is not touched.
 */
export async function clearProcessingState(trx: Db): Promise<ClearedProcessingState> {
  const attempts = await trx('extraction_attempts').delete();
  const events = await trx('recovery_events').delete();
  const groups = await trx('extraction_groups').delete();
  const jobs = await trx('extraction_jobs').delete();
  return {
    extraction_jobs_deleted: jobs,
    staged_groups_deleted: groups,
    extraction_attempts_deleted: attempts,
    recovery_events_deleted: events,
  };
}

/** Deletes every entity and relationship citation. */
export async function clearCitations(trx: Db): Promise<number> {
  return (await trx('relationship_citations').delete()) + (await trx('source_citations').delete());
}
