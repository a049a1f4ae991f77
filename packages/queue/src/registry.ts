import type { QueueName, TaskFailure, TaskRecord } from './task.ts';

/** The few log methods the queue uses (the services' winston loggers have them). */
export interface QueueLogger {
  info(message: string): unknown;
  warning(message: string): unknown;
  error(message: string): unknown;
}

export interface HandlerContext {
  task: TaskRecord;
  /** Aborted once the task is cancelled; pass it to anything that accepts one. */
  signal: AbortSignal;
  /** Throws TaskCancelledError when the task was cancelled; call it between steps. */
  checkCancelled(): Promise<void>;
  logger: QueueLogger;
}

export type TaskHandler = (context: HandlerContext) => Promise<unknown>;

/**
 * Settles what a task worked on once the task failed for good, whatever the reason: its handler's error,
 * an error escaping it, or the reconciler failing it after its worker died. Runs where the handlers run.
 */
export type FailureHandler = (task: TaskRecord, failure: TaskFailure) => Promise<void>;

export interface OperationOptions {
  queue: QueueName;
  /** False when the handler owns its retries: any failure is final. */
  retryOnTransient?: boolean;
  /** False when a task abandoned by a crashed worker must fail rather than run again. */
  retryOnCrash?: boolean;
  /** Held back while processing is paused (indexing, extraction). */
  pausable?: boolean;
  /** Where the task's data names the source it works on (for per-source pause). */
  sourceIdField?: string;
}

export interface Operation {
  options: Required<Omit<OperationOptions, 'sourceIdField'>> & Pick<OperationOptions, 'sourceIdField'>;
  handler?: TaskHandler;
  onFailed?: FailureHandler;
}

/**
 * Operations and their handlers. The API side needs only the options (lane, pause, retry policy) when
 * it enqueues; the worker side also registers the handler that runs it.
 */
export class OperationRegistry {
  private readonly operations = new Map<string, Operation>();

  define(name: string, options: OperationOptions, handler?: TaskHandler, onFailed?: FailureHandler): void {
    const earlier = this.operations.get(name);
    this.operations.set(name, {
      options: { retryOnTransient: true, retryOnCrash: true, pausable: false, ...options },
      handler: handler ?? earlier?.handler,
      onFailed: onFailed ?? earlier?.onFailed,
    });
  }

  get(name: string): Operation | undefined {
    return this.operations.get(name);
  }

  names(): string[] {
    return [...this.operations.keys()];
  }

  pausableOperations(): Set<string> {
    return new Set([...this.operations].filter(([, operation]) => operation.options.pausable).map(([name]) => name));
  }
}
