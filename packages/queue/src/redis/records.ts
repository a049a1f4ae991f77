import { isoOrNull } from '../ids.ts';
import type { NewTask, QueueName, TaskRecord, TaskStatus } from '../task.ts';

/** A task hash as Redis returns it. Absent fields are nulls of the record. */
export type TaskHash = Record<string, string>;

/**
 * A new task as the enqueue script's 13 positional arguments: a fixed list rather than field/value
 * pairs (half the arguments to encode). The source id comes as '=' + id, '' for none (so an empty id
 * stays distinct from none); the retry origin '' for none. The script adds the constant fields
 * (status, attempts, run_after) and the sequence and rank.
 */
export function enqueueArgs(
  taskId: string,
  task: NewTask,
  json: { data: string; metadata: string },
  now: number,
): (string | number)[] {
  return [
    task.queue,
    taskId,
    task.priority,
    task.operation,
    json.data,
    json.metadata,
    task.max_tries,
    task.retry_on_crash ? 1 : 0,
    task.payload_version,
    now,
    task.pausable ? 1 : 0,
    task.source_id === null ? '' : `=${task.source_id}`,
    task.retry_of ?? '',
  ];
}

/** The record of a task just queued, as `get` would return it (data and metadata parsed from the stored JSON). */
export function queuedRecord(
  taskId: string,
  task: NewTask,
  json: { data: string; metadata: string },
  now: number,
): TaskRecord {
  return {
    task_id: taskId,
    queue: task.queue,
    operation: task.operation,
    status: 'queued',
    priority: task.priority,
    data: JSON.parse(json.data) as Record<string, unknown>,
    metadata: JSON.parse(json.metadata) as Record<string, unknown>,
    attempts: 0,
    max_tries: task.max_tries,
    retry_on_crash: task.retry_on_crash,
    payload_version: task.payload_version,
    created_at: isoOrNull(now)!,
    started_at: null,
    completed_at: null,
    error: null,
    error_type: null,
    run_after: 0,
    retried_to: null,
    retry_of: task.retry_of || null,
    pausable: task.pausable,
    source_id: task.source_id,
  };
}

export function toRecord(hash: TaskHash): TaskRecord {
  const time = (field: string) => (hash[field] === undefined ? null : isoOrNull(Number(hash[field])));
  return {
    task_id: hash.task_id,
    queue: hash.queue as QueueName,
    operation: hash.operation,
    status: hash.status as TaskStatus,
    priority: Number(hash.priority),
    data: JSON.parse(hash.data),
    metadata: JSON.parse(hash.metadata),
    attempts: Number(hash.attempts),
    max_tries: Number(hash.max_tries),
    retry_on_crash: hash.retry_on_crash === '1',
    payload_version: Number(hash.payload_version),
    created_at: time('created_at')!,
    started_at: time('started_at'),
    completed_at: time('completed_at'),
    error: hash.error ?? null,
    error_type: hash.error_type ?? null,
    run_after: Number(hash.run_after ?? 0),
    retried_to: hash.retried_to ?? null,
    retry_of: hash.retry_of ?? null,
    pausable: hash.pausable === '1',
    source_id: hash.source_id ?? null,
  };
}
