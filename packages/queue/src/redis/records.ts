import { isoOrNull } from '../ids.ts';
import type { NewTask, QueueName, TaskRecord, TaskStatus } from '../task.ts';

/** A task hash as Redis returns it. Absent fields are nulls of the record. */
export type TaskHash = Record<string, string>;

/** The hash fields of a freshly queued task, as HSET's field/value list. */
export function newTaskFields(taskId: string, task: NewTask, now: number): string[] {
  const fields: Record<string, string> = {
    task_id: taskId,
    queue: task.queue,
    operation: task.operation,
    status: 'queued',
    priority: String(task.priority),
    data: JSON.stringify(task.data),
    metadata: JSON.stringify(task.metadata),
    attempts: '0',
    max_tries: String(task.max_tries),
    retry_on_crash: task.retry_on_crash ? '1' : '0',
    payload_version: String(task.payload_version),
    created_at: String(now),
    run_after: '0',
    pausable: task.pausable ? '1' : '0',
  };
  if (task.source_id !== null) fields.source_id = task.source_id;
  if (task.retry_of) fields.retry_of = task.retry_of;
  return Object.entries(fields).flat();
}

/** HGETALL's flat reply (as Lua scripts return it) to a hash object. */
export function pairsToHash(flat: string[]): TaskHash {
  const hash: TaskHash = {};
  for (let index = 0; index < flat.length; index += 2) hash[flat[index]] = flat[index + 1];
  return hash;
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
