import { isoOrNull } from './ids.ts';

/**
 * What the reconciler does with a task whose worker died under it. It runs once more at most: a task
 * that was running at a second death is what kills its workers, and running it again would only
 * crash-loop the process. Both adapters apply this policy.
 */
export const crashLimit = 2;

export const crashFailures = {
  /** Abandoned, and retry_on_crash is false or no attempt is left. */
  unrecoverable: { type: 'worker_crashed', message: 'The worker running this task stopped before it finished' },
  /** Kept on the task while it waits for its one more run (cleared when it completes). */
  rerun: {
    type: 'worker_crashed',
    message: 'The worker running this task stopped before it finished; the task runs once more',
  },
  crashedTwice: { type: 'crashed_twice' },
} as const;

export interface CrashedRun {
  attempts: number;
  worker_id: string | null;
  started_at: number | null;
  heartbeat_at: number | null;
}

/** The post-mortem of a task failed as crashed_twice: what the last run was, and what to do next. */
export function crashedTwicePostMortem(run: CrashedRun): string {
  return (
    `The worker running this task stopped ${crashLimit} times before it finished, so it is not run again ` +
    `(last run: attempt ${run.attempts}, worker ${run.worker_id ?? 'unknown'}, started ${isoOrNull(run.started_at) ?? 'unknown'}, ` +
    `last heartbeat ${isoOrNull(run.heartbeat_at) ?? 'none'}). Check the worker's log for the cause, then retry the task.`
  );
}
