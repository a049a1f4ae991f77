import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Settings } from '@rhizome/contracts/settings';
import type { TaskRegistrar } from '../module/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import { configuredIdentity } from '../search/index.ts';
import { vectorKinds, type VectorKind } from '../search/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import { withIndexLock } from './index-lock.ts';

/** Rebuilds a restored database's vector indexes (operations lane): data `{database, restored_by}`. */
export const rebuildVectorsOperation = 'backup.rebuild_vectors';

/** Which process restored the database (its connection is the new file's already). */
export function thisProcess(): string {
  return `${os.hostname()}:${process.pid}`;
}

export interface BackupOperationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  embeddings: EmbeddingService;
  writers: VectorWriterSet;
}

/**
 * The index files describe the rows of the database as it was before the restore, and a label (a rowid)
 * may now stand for another row, so they are discarded rather than reconciled: the open writers are
 * closed, the files removed, and each index is built again from the restored vectors in the database. Rebuilds
 * of one database, and restores of it, take turns (`withIndexLock`).
 */
export function defineBackupOperations(registry: TaskRegistrar, deps: BackupOperationDeps): void {
  registry.define(rebuildVectorsOperation, { queue: 'operations' }, async ({ task }) => {
    const database = String(task.data.database ?? '');
    const { name } = await taskDatabaseFor(deps.databases, database);
    return withIndexLock(deps.databases.paths, name, async () => {
      // A worker of another process may not have dropped its connection to the replaced file yet.
      if (task.data.restored_by !== thisProcess()) await deps.databases.closeOne(name);
      const { db } = await taskDatabaseFor(deps.databases, name);
      for (const kind of vectorKinds) await deps.writers[kind].forget(name);
      const vectorsDir = path.join(deps.databases.paths.databaseDir(name), 'vectors');
      fs.rmSync(vectorsDir, { recursive: true, force: true });
      fs.mkdirSync(vectorsDir, { recursive: true });
      const { identity, dimensionsKnown } = await configuredIdentity(db, deps.embeddings, deps.settings());
      const vectors: Partial<Record<VectorKind, number>> = {};
      // Without known dimensions no vector of the configured model is stored: the first write builds each index.
      if (dimensionsKnown)
        for (const kind of vectorKinds) vectors[kind] = (await deps.writers[kind].ensure(name, identity)).size;
      return { database: name, model: identity.model, vectors };
    });
  });
}
