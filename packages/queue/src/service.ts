import type { OperationRegistry } from './registry.ts';
import type { TaskStore } from './store.ts';
import { currentPayloadVersion, queueNames, type QueueName, type TaskRecord } from './task.ts';

export interface SubmitRequest {
  queue: QueueName;
  operation: string;
  data: Record<string, unknown>;
  priority?: number;
  metadata?: Record<string, unknown>;
}

export class TaskNotFoundError extends Error {
  constructor(readonly taskId: string) {
    super(`Task '${taskId}' not found`);
  }
}

export class TaskStateError extends Error {}

/**
 * The enqueue side of the queue, used by the API and by features: fills in what the operation's
 * definition says (retry policy, pause, source) and what the settings say (tries per lane).
 */
export class QueueService {
  constructor(
    readonly store: TaskStore,
    private readonly registry: OperationRegistry,
    private readonly maxTries: () => Record<QueueName, number>,
    private readonly clock: () => number = Date.now,
  ) {}

  submit(request: SubmitRequest): Promise<TaskRecord> {
    const operation = this.registry.get(request.operation);
    const sourceField = operation?.options.sourceIdField;
    const sourceId = sourceField ? request.data[sourceField] : undefined;
    return this.store.enqueue(
      {
        queue: request.queue,
        operation: request.operation,
        data: request.data,
        priority: request.priority ?? 50,
        metadata: request.metadata ?? {},
        payload_version: currentPayloadVersion,
        max_tries: this.maxTries()[request.queue],
        retry_on_crash: operation?.options.retryOnCrash ?? true,
        pausable: operation?.options.pausable ?? false,
        source_id: typeof sourceId === 'string' ? sourceId : null,
      },
      this.clock(),
    );
  }

  /** A failed task runs again as a new task with the same parameters; the original stays failed. */
  async retry(taskId: string): Promise<{ new_task_id: string; original_task_id: string }> {
    const original = await this.store.get(taskId);
    if (!original) throw new TaskNotFoundError(taskId);
    if (original.status !== 'failed')
      throw new TaskStateError(`Task '${taskId}' is ${original.status}; only failed tasks can be retried`);
    const copy = await this.store.enqueue(
      {
        queue: original.queue,
        operation: original.operation,
        data: original.data,
        priority: original.priority,
        metadata: original.metadata,
        payload_version: original.payload_version,
        max_tries: original.max_tries,
        retry_on_crash: original.retry_on_crash,
        pausable: original.pausable,
        source_id: original.source_id,
        retry_of: original.task_id,
      },
      this.clock(),
    );
    await this.store.markRetried(taskId, copy.task_id);
    return { new_task_id: copy.task_id, original_task_id: taskId };
  }

  isQueueName(value: string): value is QueueName {
    return (queueNames as readonly string[]).includes(value);
  }
}
