import { Conflict, NotFound } from '@rhizome/contracts/errors';
import type { QueueService } from '@rhizome/queue';
import type { ReadinessGate } from '../../providers/index.ts';
import { getSource, updateSource } from '../../sources/index.ts';
import type { Db } from '../../storage/index.ts';
import {
  getGroup,
  getJob,
  latestJob,
  moveGroup,
  moveJob,
  openGroupStatuses,
  queueGroup,
  type JobRow,
} from '../jobs.ts';

export interface RerunDeps {
  db: Db;
  database: string;
  queue: QueueService;
  priority: number;
  readiness: Pick<ReadinessGate, 'assertReady'>;
}

export interface QueuedRerun {
  chunk_index: number;
  queue_task_id: string;
  attempt_number: number;
}

/** Job states a re-run reopens: a finished run (its result is replaced at the next commit) or one still extracting. */
const reopenable: JobRow['status'][] = ['completed', 'failed', 'queued', 'running'];

/**
 * Runs some groups of a source's current extraction again (optionally with another model): the groups
 * go back to pending in their job, the job to running, the source to extracting. When they end, the job
 * is finalised and committed as any run: the other groups' harvests stay as they were, and the commit
 * replaces the source's contribution with the result (stable node, edge and citation ids, so only what
 * the re-run groups changed differs). 404 for an unknown source, run or group; 409 while the run
 * finalises or commits, for a group still open, or when another request reopened it first.
 */
export async function rerunGroups(
  deps: RerunDeps,
  sourceId: string,
  groupIndexes: readonly number[],
  model?: string,
): Promise<{ job: JobRow; reruns: QueuedRerun[] }> {
  const { db } = deps;
  const source = await getSource(db, sourceId);
  if (!source) throw NotFound.resource('Source', sourceId);
  const job = source.extraction_job_id ? await getJob(db, source.extraction_job_id) : await latestJob(db, sourceId);
  if (!job) throw NotFound.resource('Extraction job', sourceId);
  if (!reopenable.includes(job.status) || source.status === 'committing' || source.status === 'mcp_extracting')
    throw new Conflict(
      `Source '${sourceId}' cannot re-run chunks now: its extraction is ${job.status} and the source ${source.status}`,
      { job_status: job.status, source_status: source.status },
    );
  const indexes = [...new Set(groupIndexes)].sort((a, b) => a - b);
  for (const index of indexes) {
    const group = await getGroup(db, job.id, index);
    if (!group) throw NotFound.resource('Chunk', String(index));
    if (openGroupStatuses.includes(group.status))
      throw new Conflict(`Chunk ${index} of source '${sourceId}' is already ${group.status}`, { chunk_index: index });
  }
  await deps.readiness.assertReady('extraction');
  const now = new Date().toISOString();
  await db.transaction(async (trx) => {
    if (!(await moveJob(trx, job.id, reopenable, { status: 'running', completed_at: null, error_message: null })))
      throw new Conflict(`The extraction of source '${sourceId}' changed meanwhile`);
    for (const index of indexes) {
      const reopened = await moveGroup(trx, job.id, index, ['completed', 'failed', 'cancelled'], {
        status: 'pending',
        task_id: null,
        error_message: null,
        completed_at: null,
      });
      if (!reopened) throw new Conflict(`Chunk ${index} of source '${sourceId}' was re-run by another request`);
    }
    await updateSource(trx, sourceId, {
      status: 'extracting',
      current_step: 'extracting',
      error_stage: null,
      error_message: null,
      step_description: `Re-running ${indexes.length === 1 ? `chunk ${indexes[0]}` : `${indexes.length} chunks`}${model ? ` with ${model}` : ''}`,
      last_activity_at: now,
    });
  });
  const reopenedJob = { ...job, status: 'running' as const };
  const reruns: QueuedRerun[] = [];
  for (const index of indexes) {
    // Counted before the task is queued: it may finish (and add its attempt) before this returns.
    const previous = (await db('extraction_attempts')
      .where({ source_id: sourceId, group_index: index })
      .max({ n: 'attempt_number' })
      .first()) as { n: number | null } | undefined;
    const taskId = await queueGroup(db, deps.queue, deps.database, reopenedJob, index, deps.priority, model);
    reruns.push({ chunk_index: index, queue_task_id: taskId, attempt_number: (previous?.n ?? 0) + 1 });
  }
  return { job: reopenedJob, reruns };
}
