import { randomUUID } from 'node:crypto';
import type { Db } from '../../storage/index.ts';
import type { GroupRow, JobRow } from '../jobs.ts';
import type { GroupHarvest } from '../types.ts';
import { encodeCalls, jobPromptRecord, type PromptRecord } from './prompts.ts';
import type { AttemptRecorder } from './recorder.ts';

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

/** An attempt's own figures: what a group's history lists (the raw material is read one attempt at a time). */
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

/** The columns the insert writes, in its bindings' order; the attempt number comes from its subquery. */
const writtenColumns = [
  ...summaryColumns.filter((column) => column !== 'attempt_number'),
  'calls',
  'parsed',
  'dropped',
] as const satisfies readonly Exclude<keyof AttemptRow, 'attempt_number'>[];

/**
 * One statement, the same text for every attempt: the values, and the attempt's number after the group's
 * earlier attempts (`extraction_attempts_group` index) in a subquery, so no lookup goes before it.
 */
const insertSql =
  `insert into extraction_attempts (${writtenColumns.join(', ')}, attempt_number) values (` +
  `${writtenColumns.map(() => '?').join(', ')}, ` +
  '(select coalesce(max(attempt_number), 0) + 1 from extraction_attempts where source_id = ? and group_index = ?))';

/** The insert's bindings: the row's values in `writtenColumns` order, then the subquery's group. */
function attemptBindings(outcome: AttemptOutcome, record: PromptRecord): (string | number | null)[] {
  const { job, group, recorder, harvest, error } = outcome;
  const calls = recorder.calls;
  let inputTokens = 0;
  let outputTokens = 0;
  let durationMs = 0;
  let responseLength = 0;
  let model: string | null = null;
  let trippedBy: string | null = null;
  for (const call of calls) {
    inputTokens += call.inputTokens;
    outputTokens += call.outputTokens;
    durationMs += call.durationMs;
    responseLength += call.output.length;
    model ??= call.model || null;
    trippedBy ??= call.trippedBy || null;
  }
  const row: Omit<AttemptRow, 'attempt_number'> = {
    // randomUUID draws from a pooled buffer of entropy: no system call per attempt.
    id: `att_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    source_id: job.source_id,
    job_id: job.id,
    group_index: group.group_index,
    first_chunk_index: group.first_chunk_index,
    last_chunk_index: group.last_chunk_index,
    task_id: outcome.taskId,
    status: error ? (error.cancelled ? 'cancelled' : 'failed') : 'completed',
    provider: outcome.provider,
    model,
    entity_count: harvest?.entities.length ?? 0,
    relationship_count: harvest?.relationships.length ?? 0,
    dropped_count: recorder.droppedCount,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    llm_duration_ms: durationMs,
    input_text_length: recorder.inputTextLength,
    llm_response_length: responseLength,
    finish_reason: calls.at(-1)?.finishReason ?? null,
    aborted_by_loop: trippedBy,
    error_message: error?.message ?? null,
    error_type: error?.type ?? null,
    calls: encodeCalls(calls, record),
    parsed: JSON.stringify(parsedOf(harvest)),
    dropped: JSON.stringify(recorder.dropped),
    started_at: new Date(outcome.startedAt).toISOString(),
    completed_at: new Date().toISOString(),
  };
  return [...writtenColumns.map((column) => row[column]), job.source_id, group.group_index];
}

/**
 * The row an attempt leaves, written inside the caller's transaction (the group's own) as one
 * statement with a constant text (no query building), numbered after the group's earlier attempts by
 * its subquery, its prompts as references to the job's prompt record (attempts/prompts.ts; read once
 * per job and process, then from memory). Nothing when the recorder keeps nothing.
 */
export async function insertAttempt(trx: Db, outcome: AttemptOutcome): Promise<void> {
  if (!outcome.recorder.keeps) return;
  const record = await jobPromptRecord(trx, outcome.job.id, outcome.recorder.calls);
  await trx.raw(insertSql, attemptBindings(outcome, record));
}

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
