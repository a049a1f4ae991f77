import { queueUrl } from '@rhizome/core/pubsub';
import { runtimeSettings } from '@rhizome/core/tasks';
import { registerTaskHandlers, type Platform } from '@rhizome/core/platform';
import { WorkerRuntime } from '@rhizome/queue';

export interface NeuronWorker {
  /** Where the worker takes its tasks from, for the ready line. */
  readonly queue: string;
  readonly runtime: WorkerRuntime;
  stop(): Promise<void>;
}

/**
 * The background worker: registers every module's task handlers and runs them from its task queue (in the API process in the
 * embedded default, or as its own process against Redis/Valkey or a shared queue.db), records failed
 * tasks and recoveries in the system event log.
 */
export function createNeuronWorker(deps: { platform: Platform }): NeuronWorker {
  const { platform } = deps;
  registerTaskHandlers(platform);
  const record = (event: Parameters<typeof platform.processing.record>[0]) =>
    void platform.processing
      .record(event)
      .catch((error: unknown) => platform.logger.warning(`event log: ${String(error)}`));
  const runtime = new WorkerRuntime({
    store: platform.tasks,
    registry: platform.operations,
    settings: () => runtimeSettings(platform.settings.get()),
    pauseFilter: () => platform.pauseFilter.current(),
    logger: platform.logger,
    onTaskFailed: (task, failure) =>
      record({
        type: 'task_failed',
        action: task.operation,
        source: 'worker',
        reason: failure.message,
        details: { task_id: task.task_id, queue: task.queue, error_type: failure.type, attempts: task.attempts },
        database_name: typeof task.metadata.database === 'string' ? task.metadata.database : null,
      }),
    onRecovered: (counts) =>
      record({
        type: 'recovery',
        action: 'reconcile',
        source: 'reconciler',
        reason: null,
        details: { ...counts },
        database_name: null,
      }),
  });
  runtime.start();
  const unsubscribe = platform.onProcessingChanged(() => runtime.poke());
  return {
    queue: queueUrl(platform.settings.get())?.replace(/\/\/:[^@]*@/, '//') ?? platform.paths.queueDb,
    runtime,
    async stop() {
      unsubscribe();
      await runtime.stop();
    },
  };
}
