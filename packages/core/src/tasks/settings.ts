import type { Settings } from '@rhizome/contracts/settings';
import type { QueueName, RuntimeSettings } from '@rhizome/queue';

/**
 * With the local provider the llm lane runs one task per enabled instance (each instance answers one
 * request at a time); other providers use `workers.llm_max_concurrent`.
 */
export function llmConcurrency(settings: Settings): number {
  const instances = settings.llm.localllm_instances.filter((instance) => instance.enabled).length;
  return settings.llm.chat_provider === 'localllm' ? Math.max(1, instances) : settings.workers.llm_max_concurrent;
}

export function runtimeSettings(settings: Settings): RuntimeSettings {
  return {
    concurrency: { operations: settings.workers.operations_max_concurrent, llm: llmConcurrency(settings) },
    resultTtlMs: {
      operations: settings.timeouts.operations_result_ttl * 1000,
      llm: settings.timeouts.llm_result_ttl * 1000,
    },
    failedTtlMs: settings.timeouts.failed_result_ttl * 1000,
  };
}

export function maxTries(settings: Settings): Record<QueueName, number> {
  return { operations: settings.retries.operations_worker_max_tries, llm: settings.retries.llm_worker_max_tries };
}
