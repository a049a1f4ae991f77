import type { QueueService, TaskStore } from '@rhizome/queue';
import { idleSources, updateSource, withLoaderWarning, type SourceRow } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { recordRecoveryEvent } from './recovery-events.ts';
import {
  activeJobStatuses,
  finalizeWhenDone,
  getJob,
  latestJob,
  listGroups,
  moveGroup,
  moveJob,
  openGroupStatuses,
  queueGroup,
  type JobRow,
} from './jobs.ts';

export interface IdleExtractionContext {
  db: Db;
  database: string;
  queue: QueueService;
  tasks: TaskStore;
  /** Priority of the tasks queued here (`priorities.background`). */
  priority: number;
}

export interface FinishedExtraction {
  sourceId: string;
  /** What the source was moved to, or `finalizing` when its finalisation was queued. */
  outcome: string;
}

const inExtraction: SourceRow['status'][] = ['extracting', 'extracted', 'committing'];

/**
 * Finishes sources whose extraction has no work left but that still show it in progress (left so by a
 * crash between two steps, by tasks cancelled in the queue, or by an earlier version that queued
 * nothing for a run of zero groups). In a running job, a group whose task ended without it is
 * cancelled and a pending group that never got a task is queued; once no group is open the job moves on
 * to finalisation. A job of zero groups ends and the source is `indexed` with the reason; a source
 * whose job already ended takes that job's outcome. Jobs finalising or committing are their tasks'
 * business. Only sources with no activity for `idleMs` are looked at, so steps in flight are not raced.
 */
export async function finishIdleExtractions(
  context: IdleExtractionContext,
  idleMs: number,
): Promise<FinishedExtraction[]> {
  const { db } = context;
  const before = new Date(Date.now() - idleMs).toISOString();
  const sources = await idleSources(db, inExtraction, before);
  const finished: FinishedExtraction[] = [];
  for (const source of sources) {
    const job = source.extraction_job_id ? await getJob(db, source.extraction_job_id) : await latestJob(db, source.id);
    const step =
      job && activeJobStatuses.includes(job.status)
        ? await finishActive(context, source, job)
        : { outcome: await settle(db, source, job), action: 'settle_status', enqueued: 0 };
    if (!step) continue;
    finished.push({ sourceId: source.id, outcome: step.outcome });
    await recordRecoveryEvent(db, {
      sourceId: source.id,
      fromStatus: source.status,
      action: step.action,
      reason: 'stalled',
      enqueued: step.enqueued,
      detail: step.outcome,
    });
  }
  return finished;
}

/** What recovery did to one source: the outcome it reports, the action it records and how many tasks it queued. */
interface RecoveryStep {
  outcome: string;
  action: string;
  enqueued: number;
}

async function finishActive(
  context: IdleExtractionContext,
  source: SourceRow,
  job: JobRow,
): Promise<RecoveryStep | null> {
  if (job.status !== 'queued' && job.status !== 'running') return null;
  if (job.total_groups > 0) {
    const requeued = await settleOrphanGroups(context, job);
    if (await finalizeWhenDone(context.db, context.queue, context.database, job, context.priority))
      return { outcome: 'finalizing', action: 'finalize_extraction', enqueued: requeued + 1 };
    return requeued ? { outcome: 'groups queued again', action: 'extract_chunk', enqueued: requeued } : null;
  }
  const at = new Date().toISOString();
  if (
    !(await moveJob(context.db, job.id, ['queued', 'running'], {
      status: 'cancelled',
      completed_at: at,
      error_message: 'nothing to extract',
    }))
  )
    return null;
  await updateSource(
    context.db,
    source.id,
    {
      status: 'indexed',
      extraction_job_id: null,
      current_step: 'indexed',
      step_description: 'Indexed; nothing to extract',
      last_activity_at: at,
      loader_warnings: withLoaderWarning(
        source,
        'Not extracted: nothing to extract, the source has no chunk to send to the model',
      ),
    },
    inExtraction,
  );
  return { outcome: 'indexed', action: 'settle_status', enqueued: 0 };
}

/** Cancels open groups whose task ended without them and queues pending ones that have none; returns how many were queued. */
async function settleOrphanGroups(context: IdleExtractionContext, job: JobRow): Promise<number> {
  let requeued = 0;
  for (const group of (await listGroups(context.db, job.id)).filter((candidate) =>
    openGroupStatuses.includes(candidate.status),
  )) {
    if (group.task_id === null) {
      await queueGroup(context.db, context.queue, context.database, job, group.group_index, context.priority);
      requeued++;
      continue;
    }
    const task = await context.tasks.get(group.task_id);
    if (task?.status === 'queued' || task?.status === 'running') continue;
    await moveGroup(context.db, job.id, group.group_index, openGroupStatuses, {
      status: 'cancelled',
      completed_at: new Date().toISOString(),
      error_message: `its task ${task ? `was ${task.status}` : 'no longer exists'} without extracting it`,
    });
  }
  return requeued;
}

/** A source no job works for shows its last job's outcome: committed, error, or back to indexed. */
async function settle(db: Db, source: SourceRow, job: JobRow | undefined): Promise<string> {
  const at = new Date().toISOString();
  const changes: Partial<SourceRow> =
    job?.status === 'completed'
      ? {
          status: 'committed',
          current_step: 'committed',
          step_description: 'In the graph',
          commit_completed_at: source.commit_completed_at ?? job.completed_at ?? at,
        }
      : job?.status === 'failed'
        ? {
            status: 'error',
            error_stage: 'extraction',
            error_message: job.error_message ?? 'The extraction failed',
            current_step: 'error',
            step_description: `Extraction failed: ${job.error_message ?? 'no reason recorded'}`,
          }
        : {
            status: 'indexed',
            extraction_job_id: null,
            current_step: 'indexed',
            step_description: `Indexed; the last extraction ${job ? `was ${job.status}` : 'left no job'}`,
          };
  await updateSource(db, source.id, { ...changes, active_task_id: null, last_activity_at: at }, inExtraction);
  return changes.status!;
}
