import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedTaskStore } from '../../src/embedded/store.ts';
import type { TaskStore } from '../../src/store.ts';
import type { QueueName } from '../../src/task.ts';

export interface StoreOptions {
  globalLimit?: (queue: QueueName) => number | undefined;
}

/** How to reach one backend, so a child process can open the same queue. */
export interface AdapterTarget {
  kind: 'embedded' | 'redis' | 'postgres';
  location: string;
  /** Redis's key prefix, or PostgreSQL's schema. */
  prefix?: string;
}

export async function openStore(target: AdapterTarget, options: StoreOptions = {}): Promise<TaskStore> {
  if (target.kind === 'embedded') return EmbeddedTaskStore.open(target.location, options);
  if (target.kind === 'postgres') {
    const { PostgresTaskStore } = await import('../../src/postgres/store.ts');
    return PostgresTaskStore.connect(target.location, { schema: target.prefix ?? 'queue', ...options });
  }
  const { RedisTaskStore } = await import('../../src/redis/store.ts');
  return RedisTaskStore.connect(target.location, { prefix: target.prefix, ...options });
}

export function embeddedTarget(): AdapterTarget {
  return { kind: 'embedded', location: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'queue-')), 'queue.db') };
}
