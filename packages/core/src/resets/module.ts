import type { FeatureModule } from '../module/index.ts';
import type { ResetsHost } from './host.ts';
import { ResetService } from './service.ts';
import { defineResetOperations } from './tasks.ts';

/**
 * Scoped resets of a database that span features: the processing state, the knowledge, everything. Owns
 * no table: each feature empties its own tables through its face (`reset.ts` in each).
 */
export const resetsModule: FeatureModule<ResetService, ResetsHost> = {
  name: 'resets',
  tables: [],
  defineTasks: defineResetOperations,
  service: (host, { name, db }) => new ResetService({ db, database: name, queue: host.queue }),
};
