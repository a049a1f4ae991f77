import { EmbeddedTaskStore, type TaskStore } from '@rhizome/queue';
import type { SettingsStore } from '../settings/index.ts';
import { queueUrl } from '../pubsub/index.ts';
import { llmConcurrency } from './settings.ts';

/** The queue the settings select: Redis/Valkey when configured, else `<data_dir>/queue.db`. */
export async function openTaskStore(settings: SettingsStore, queueDbFile: string): Promise<TaskStore> {
  // The llm lane's cap holds across every worker process, read live so a settings change applies at once.
  const globalLimit = (queue: string) => (queue === 'llm' ? llmConcurrency(settings.get()) : undefined);
  const url = queueUrl(settings.get());
  if (!url) return EmbeddedTaskStore.open(queueDbFile, { globalLimit });
  // Loaded only when used: the embedded default never needs a Redis client.
  const { RedisTaskStore } = await import('@rhizome/queue/redis/store');
  return RedisTaskStore.connect(url, { globalLimit });
}
