import { InProcessPubSub, RedisPubSub, type PubSub } from '@rhizome/queue';
import type { Settings } from '@rhizome/contracts/settings';

/** The Redis/Valkey URL the queue settings describe, or null for the embedded backend. */
export function queueUrl(settings: Settings): string | null {
  const queue = settings.queue;
  if (queue.backend !== 'redis') return null;
  const auth = queue.queue_password ? `:${encodeURIComponent(queue.queue_password)}@` : '';
  return `${queue.queue_ssl ? 'rediss' : 'redis'}://${auth}${queue.queue_host}:${queue.queue_port}/${queue.queue_database}`;
}

export async function connectPubSub(settings: Settings): Promise<PubSub> {
  const url = queueUrl(settings);
  return url ? RedisPubSub.connect(url) : new InProcessPubSub();
}
