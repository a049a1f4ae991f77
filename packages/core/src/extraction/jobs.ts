import type { ChatProvider } from '@rhizome/contracts/settings';
import { randomBytes } from 'node:crypto';
import type { QueueService } from '@rhizome/queue';
import { BadInput } from '@rhizome/contracts/errors';
import type { Db } from '../storage/index.ts';
import { extractGroupOperation, finalizeExtractionOperation } from './operation-names.ts';
import type { ExtractionOptions } from './options.ts';
import type { ExtractionPlan } from './plan.ts';

/** Another provider and/or model than the settings name, for a re-run. */
export interface ModelChoice {
  provider?: ChatProvider;
  model?: string;
}

export type JobStatus = 'queued' | 'running' | 'finalizing' | 'committing' | 'completed' | 'cancelled' | 'failed';
export type GroupStatus = 'pending' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A job still working: a new run needs `force` to replace it. */
export const activeJobStatuses: readonly JobStatus[] = ['queued', 'running', 'finalizing', 'committing'];
/** Groups that may still produce a harvest. */
export const openGroupStatuses: readonly GroupStatus[] = ['pending', 'queued', 'running'];

/** Statuses a run starts from. */
export const startableStatuses = ['indexed', 'extracted'] as const;
/** What `force` also re-extracts: a committed source (its contribution is replaced at commit) or one whose extraction failed. */
const forceStartableStatuses = ['committed', 'error'] as const;

/** Refuses (400) a source whose status a run does not start from; `force` adds the re-extractable ones. */
export function assertStartable(sourceId: string, status: string, force: boolean | undefined): void {
  const allowed: readonly string[] = force ? [...startableStatuses, ...forceStartableStatuses] : startableStatuses;
  if (allowed.includes(status)) return;
  const hint = (forceStartableStatuses as readonly string[]).includes(status)
    ? '; pass force true to re-extract it'
    : '';
  throw BadInput.field(
    `Source '${sourceId}' is ${status}: extraction starts from ${startableStatuses.join(' or ')}${hint}`,
    'status',
  );
}

export interface JobRow {
  id: string;
  source_id: string;
  status: JobStatus;
  depth: 'full' | 'quick';
  domain: string;
  options: string;
  total_groups: number;
  estimated_input_tokens: number;
  estimated_output_tokens: number;
  estimated_cost_usd: number | null;
  result: string | null;
  stats: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  finalized_at: string | null;
  completed_at: string | null;
}

export interface GroupRow {
  job_id: string;
  group_index: number;
  first_chunk_index: number;
  last_chunk_index: number;
  status: GroupStatus;
  task_id: string | null;
  attempts: number;
  harvest: string | null;
  entity_count: number | null;
  relationship_count: number | null;
  error_message: string | null;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
}

export const newJobId = (): string => `job_${randomBytes(12).toString('hex')}`;

/** A new job for a source's planned groups: queued for the server's extractor, running when an agent extracts. */
export function newJob(
  sourceId: string,
  domain: string,
  options: ExtractionOptions,
  plan: ExtractionPlan,
  status: 'queued' | 'running',
  at: string,
): JobRow {
  return {
    id: newJobId(),
    source_id: sourceId,
    status,
    depth: options.depth,
    domain,
    options: JSON.stringify(options),
    total_groups: plan.groups.length,
    estimated_input_tokens: plan.estimate.inputTokens,
    estimated_output_tokens: plan.estimate.outputTokens,
    estimated_cost_usd: status === 'running' ? 0 : plan.estimate.costUsd,
    result: null,
    stats: null,
    error_message: null,
    created_at: at,
    started_at: status === 'running' ? at : null,
    finalized_at: null,
    completed_at: null,
  };
}

/** Writes the job and one pending row per planned group (inside the caller's transaction). */
export async function insertJob(trx: Db, job: JobRow, plan: ExtractionPlan): Promise<void> {
  await trx('extraction_jobs').insert(job);
  const rows = plan.groups.map((group) => ({
    job_id: job.id,
    group_index: group.groupIndex,
    first_chunk_index: group.firstChunkIndex,
    last_chunk_index: group.lastChunkIndex,
    status: 'pending' as const,
  }));
  for (let start = 0; start < rows.length; start += 100)
    await trx('extraction_groups').insert(rows.slice(start, start + 100));
}

export function jobOptions(job: JobRow): ExtractionOptions {
  return JSON.parse(job.options) as ExtractionOptions;
}

export async function getJob(db: Db, id: string): Promise<JobRow | undefined> {
  return (await db('extraction_jobs').where({ id }).first()) as JobRow | undefined;
}

export async function latestJob(db: Db, sourceId: string): Promise<JobRow | undefined> {
  return (await db('extraction_jobs')
    .where({ source_id: sourceId })
    .orderBy('created_at', 'desc')
    .orderBy('rowid', 'desc')
    .first()) as JobRow | undefined;
}

/** Compare-and-swap on the job's status; false when it was not in one of `from`. */
export async function moveJob(
  db: Db,
  id: string,
  from: readonly JobStatus[],
  changes: Partial<JobRow>,
): Promise<boolean> {
  return (await db('extraction_jobs').where({ id }).whereIn('status', from).update(changes)) > 0;
}

export async function moveGroup(
  db: Db,
  jobId: string,
  groupIndex: number,
  from: readonly GroupStatus[],
  changes: Partial<GroupRow>,
): Promise<boolean> {
  return (
    (await db('extraction_groups')
      .where({ job_id: jobId, group_index: groupIndex })
      .whereIn('status', from)
      .update(changes)) > 0
  );
}

export async function getGroup(db: Db, jobId: string, groupIndex: number): Promise<GroupRow | undefined> {
  return (await db('extraction_groups').where({ job_id: jobId, group_index: groupIndex }).first()) as
    GroupRow | undefined;
}

/** A job's groups in order (without their harvests), all of them or one page. */
export async function listGroups(db: Db, jobId: string, page?: { offset: number; limit: number }): Promise<GroupRow[]> {
  const query = db('extraction_groups').where({ job_id: jobId }).orderBy('group_index');
  if (page) query.offset(page.offset).limit(page.limit);
  return (await query.select(
    'job_id',
    'group_index',
    'first_chunk_index',
    'last_chunk_index',
    'status',
    'task_id',
    'attempts',
    'entity_count',
    'relationship_count',
    'error_message',
    'started_at',
    'completed_at',
    'duration_ms',
  )) as GroupRow[];
}

export async function groupCounts(db: Db, jobId: string): Promise<Record<GroupStatus, number>> {
  const counts: Record<GroupStatus, number> = {
    pending: 0,
    queued: 0,
    running: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
  };
  const rows = (await db('extraction_groups')
    .where({ job_id: jobId })
    .groupBy('status')
    .select('status')
    .count({ n: '*' })) as { status: GroupStatus; n: number }[];
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Completed groups' harvests in group order (the finalisation's input). */
export async function completedHarvests(db: Db, jobId: string): Promise<string[]> {
  const rows = (await db('extraction_groups')
    .where({ job_id: jobId, status: 'completed' })
    .orderBy('group_index')
    .select('harvest')) as { harvest: string }[];
  return rows.map((row) => row.harvest);
}

/** Marks a source's active jobs cancelled with their open groups (its tasks are cancelled by the caller). */
export async function cancelActiveJobs(db: Db, sourceId: string, reason: string): Promise<number> {
  const now = new Date().toISOString();
  const jobs = (await db('extraction_jobs')
    .where({ source_id: sourceId })
    .whereIn('status', activeJobStatuses)
    .select('id')) as { id: string }[];
  for (const { id } of jobs) {
    await db('extraction_groups')
      .where({ job_id: id })
      .whereIn('status', openGroupStatuses)
      .update({ status: 'cancelled', completed_at: now });
    await moveJob(db, id, activeJobStatuses, { status: 'cancelled', completed_at: now, error_message: reason });
  }
  return jobs.length;
}

/** Queues one pending group's extraction task (llm lane) and records the task on the group; returns the task's id. */
export async function queueGroup(
  db: Db,
  queue: QueueService,
  database: string,
  job: JobRow,
  groupIndex: number,
  priority: number,
  /** A re-run with another provider or model than the settings name. */
  choice: ModelChoice = {},
): Promise<string> {
  const metadata = { database, source_id: job.source_id, job_id: job.id, group_index: groupIndex };
  const task = await queue.submit({
    queue: 'llm',
    operation: extractGroupOperation,
    priority,
    data: {
      ...metadata,
      ...(choice.provider ? { provider: choice.provider } : {}),
      ...(choice.model ? { model: choice.model } : {}),
    },
    metadata,
  });
  await moveGroup(db, job.id, groupIndex, ['pending'], { status: 'queued', task_id: task.task_id });
  return task.task_id;
}

/**
 * When no group of a running job can still produce a harvest, moves it to `finalizing` and queues the
 * finalisation. Exactly one caller wins (compare-and-swap); returns whether this one did.
 */
export async function finalizeWhenDone(
  db: Db,
  queue: QueueService,
  database: string,
  job: JobRow,
  priority: number,
): Promise<boolean> {
  const counts = await groupCounts(db, job.id);
  if (counts.pending + counts.queued + counts.running > 0) return false;
  if (!(await moveJob(db, job.id, ['queued', 'running'], { status: 'finalizing' }))) return false;
  const metadata = { database, source_id: job.source_id, job_id: job.id };
  await queue.submit({ queue: 'llm', operation: finalizeExtractionOperation, priority, data: metadata, metadata });
  return true;
}
