import { randomBytes } from 'node:crypto';
import type { Db } from '../../storage/index.ts';
import type { GroupRow, JobRow } from '../jobs.ts';
import type { GroupHarvest } from '../types.ts';
import { encodeCalls, jobPromptRecord } from './prompts.ts';
import type { AttemptRecorder, RecordedCall } from './recorder.ts';

/** One attempt at one group of one job (migration 0020). `calls` as attempts/prompts.ts stores them. */
export interface AttemptRow {
  id: string;
  source_id: string;
  job_id: string;
  group_index: number;
  attempt_number: number;
  first_chunk_index: number;
  last_chunk_index: number;
  task_id: string | null;
  status: 'completed' | 'failed' | 'cancelled';
  provider: string | null;
  model: string | null;
  entity_count: number;
  relationship_count: number;
  dropped_count: number;
  input_tokens: number;
  output_tokens: number;
  llm_duration_ms: number;
  input_text_length: number;
  llm_response_length: number;
  finish_reason: string | null;
  aborted_by_loop: string | null;
  error_message: string | null;
  error_type: string | null;
  calls: string;
  parsed: string;
  dropped: string;
  started_at: string;
  completed_at: string;
}

export interface AttemptOutcome {
  job: JobRow;
  group: GroupRow;
  taskId: string;
  provider: string;
  recorder: AttemptRecorder;
  startedAt: number;
  harvest?: GroupHarvest;
  error?: { message: string; type: string; cancelled: boolean };
}

/** The harvest's items as a reader wants them: names instead of indices. */
function parsedOf(harvest: GroupHarvest | undefined) {
  if (!harvest) return { entities: [], relationships: [] };
  return {
    entities: harvest.entities.map(({ name, type, aliases, confidence, description, properties, evidence }) => ({
      name,
      type,
      aliases,
      confidence,
      description,
      properties,
      chunk_indexes: [...new Set(evidence.map((item) => item.chunkIndex))],
    })),
    relationships: harvest.relationships.map((relationship) => ({
      source: harvest.entities[relationship.sourceIndex]?.name ?? null,
      target: harvest.entities[relationship.targetIndex]?.name ?? null,
      type: relationship.type,
      confidence: relationship.confidence,
      justification: relationship.justification,
    })),
  };
}

/**
 * The row an attempt leaves, written inside the caller's transaction (the group's own): one statement,
 * numbered after the group's earlier attempts by a subquery, its prompts as references to the job's
 * prompt record (attempts/prompts.ts). Nothing when the recorder keeps nothing.
 */
export async function insertAttempt(trx: Db, outcome: AttemptOutcome): Promise<void> {
  const { job, group, recorder, harvest, error } = outcome;
  if (!recorder.keeps) return;
  const calls = recorder.calls;
  const record = await jobPromptRecord(trx, job.id, calls);
  const last = calls.at(-1);
  const sum = (value: (call: RecordedCall) => number) => calls.reduce((total, call) => total + value(call), 0);
  const row: Omit<AttemptRow, 'attempt_number'> = {
    id: `att_${randomBytes(10).toString('hex')}`,
    source_id: job.source_id,
    job_id: job.id,
    group_index: group.group_index,
    first_chunk_index: group.first_chunk_index,
    last_chunk_index: group.last_chunk_index,
    task_id: outcome.taskId,
    status: error ? (error.cancelled ? 'cancelled' : 'failed') : 'completed',
    provider: outcome.provider,
    model: calls.find((call) => call.model)?.model ?? null,
    entity_count: harvest?.entities.length ?? 0,
    relationship_count: harvest?.relationships.length ?? 0,
    dropped_count: recorder.droppedCount,
    input_tokens: sum((call) => call.inputTokens),
    output_tokens: sum((call) => call.outputTokens),
    llm_duration_ms: sum((call) => call.durationMs),
    input_text_length: recorder.inputTextLength,
    llm_response_length: sum((call) => call.output.length),
    finish_reason: last?.finishReason ?? null,
    aborted_by_loop: calls.find((call) => call.trippedBy)?.trippedBy ?? null,
    error_message: error?.message ?? null,
    error_type: error?.type ?? null,
    calls: encodeCalls(calls, record),
    parsed: JSON.stringify(parsedOf(harvest)),
    dropped: JSON.stringify(recorder.dropped),
    started_at: new Date(outcome.startedAt).toISOString(),
    completed_at: new Date().toISOString(),
  };
  const number = trx('extraction_attempts')
    .where({ source_id: job.source_id, group_index: group.group_index })
    .select(trx.raw('coalesce(max(attempt_number), 0) + 1'));
  await trx('extraction_attempts').insert({ ...row, attempt_number: number as unknown as number });
}

const summaryColumns = [
  'id',
  'source_id',
  'job_id',
  'group_index',
  'attempt_number',
  'first_chunk_index',
  'last_chunk_index',
  'task_id',
  'status',
  'provider',
  'model',
  'entity_count',
  'relationship_count',
  'dropped_count',
  'input_tokens',
  'output_tokens',
  'llm_duration_ms',
  'input_text_length',
  'llm_response_length',
  'finish_reason',
  'aborted_by_loop',
  'error_message',
  'error_type',
  'started_at',
  'completed_at',
] as const;

export type AttemptSummaryRow = Pick<AttemptRow, (typeof summaryColumns)[number]>;

/** A group's attempts over every run of the source, newest first (without their raw material). */
export async function groupAttempts(db: Db, sourceId: string, groupIndex: number): Promise<AttemptSummaryRow[]> {
  return (await db('extraction_attempts')
    .where({ source_id: sourceId, group_index: groupIndex })
    .orderBy('attempt_number', 'desc')
    .select(...summaryColumns)) as AttemptSummaryRow[];
}

export async function getAttempt(db: Db, sourceId: string, id: string): Promise<AttemptRow | undefined> {
  return (await db('extraction_attempts').where({ source_id: sourceId, id }).first()) as AttemptRow | undefined;
}

/** The latest attempt of each group of a job, with its dropped items: the filtering log's per-group part. */
export async function latestAttemptsOf(
  db: Db,
  jobId: string,
): Promise<(AttemptSummaryRow & Pick<AttemptRow, 'dropped'>)[]> {
  const latest = db('extraction_attempts')
    .where({ job_id: jobId })
    .groupBy('group_index')
    .max({ n: 'attempt_number' })
    .select('group_index');
  return (await db('extraction_attempts as a')
    .join(latest.as('l'), (join) => join.on('a.group_index', 'l.group_index').andOn('a.attempt_number', 'l.n'))
    .where('a.job_id', jobId)
    .orderBy('a.group_index')
    .select(...summaryColumns.map((column) => `a.${column}`), 'a.dropped')) as (AttemptSummaryRow &
    Pick<AttemptRow, 'dropped'>)[];
}

/** Deletes the attempts that ended more than `retentionDays` before `now`; returns how many. */
export async function sweepAttempts(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  return db('extraction_attempts').where('completed_at', '<', before.toISOString()).delete();
}
