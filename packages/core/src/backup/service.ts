import fs from 'node:fs';
import path from 'node:path';
import { BadInput, NotFound, Conflict, describeError } from '@rhizome/contracts/errors';
import type { QueueService } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import { backupExtension, checkBackupFile, writeBackup } from './files.ts';
import { restoreWaitMs, withIndexLock } from './index-lock.ts';
import { backupNames, parseBackupName, requireBackupName, type BackupKind, type BackupOccasion } from './names.ts';
import { rebuildVectorsOperation, thisProcess } from './tasks.ts';

export interface BackupInfo {
  filename: string;
  database: string;
  kind: BackupKind;
  size: number;
  /** ISO 8601 UTC, from the name. */
  created_at: string;
}

export interface RestoreResult {
  database: string;
  restored_from: string;
  /** The copy of the database as it was just before the restore. */
  safety_backup: BackupInfo;
  /** The background task rebuilding the vector indexes from the restored data. */
  vector_task_id: string;
}

export interface BackupServiceDeps {
  databases: DatabaseManager;
  queue: QueueService;
  /** Priority of the vector rebuild task. */
  priority(): number;
  /** The database backed up; when left out, whichever is active at each call (the schedule's view). */
  database?: string;
}

/** The change in progress per backup folder: changes to one folder run one after the other in this process. */
const changesInProgress = new Map<string, Promise<unknown>>();

/**
 * Operator backups of one database under `<data_dir>/backups/<database>/` (docs/api-conventions.md#data-directory):
 * create, list, locate for download, restore, delete and prune. Changes are serialised within the process
 * (the API process, which also runs the schedule, is the only one that makes them).
 */
export class BackupService {
  constructor(private readonly deps: BackupServiceDeps) {}

  get database(): string {
    return this.deps.database ?? this.deps.databases.currentName();
  }

  create(occasion: BackupOccasion = 'backup', at = new Date()): Promise<BackupInfo> {
    return this.#exclusive(() => this.#write(this.database, occasion, at));
  }

  /** Newest first. */
  list(): BackupInfo[] {
    const database = this.database;
    const dir = this.#dir(database);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((filename) => parseBackupName(filename))
      .map((filename) => this.#describe(database, filename))
      .filter((info): info is BackupInfo => info !== null)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.filename.localeCompare(a.filename));
  }

  /** The path of a backup of the active database: 400 for a name that is not a backup's, 404 when there is none. */
  locate(filename: string): { path: string; info: BackupInfo } {
    requireBackupName(filename);
    const database = this.database;
    const info = this.#describe(database, filename);
    if (!info) throw NotFound.resource('backup', filename);
    return { path: path.join(this.#dir(database), filename), info };
  }

  /**
   * Replaces the active database with a backup: the backup is checked first, then the database as it
   * stands is copied to a `pre-restore_` safety backup, then the file is swapped under the closed
   * connection (stale WAL files removed) or, on PostgreSQL, the schema dropped and the dump replayed in
   * one transaction; then reopened, migrated if older, and every process told to drop its connection;
   * when the backup cannot be readied, the safety copy goes back in. The vector indexes
   * are rebuilt from the restored rows in the background; a restore waits for a rebuild still running
   * (up to `restoreWaitMs`, then 409) so that it never swaps the file under it.
   */
  restore(filename: string): Promise<RestoreResult> {
    return this.#exclusive(async () => {
      const { path: file } = this.locate(filename);
      const database = this.database;
      const { databases } = this.deps;
      await checkBackupFile(await databases.connection(database), file, filename);
      const safety = await withIndexLock(
        databases.paths,
        database,
        async () => {
          const before = await this.#write(database, 'restore', new Date());
          try {
            await databases.restore(database, file, { ready: true });
          } catch (error) {
            // The backup could not be brought up (a migration failed): put the database back as it was.
            await databases.restore(database, path.join(this.#dir(database), before.filename), { ready: true });
            const reason = describeError(error);
            throw BadInput.field(
              `Backup '${filename}' cannot be restored: bringing it up to date failed (${reason}); the database is unchanged`,
              'filename',
            );
          }
          return before;
        },
        restoreWaitMs,
      );
      const task = await this.deps.queue.submit({
        queue: 'operations',
        operation: rebuildVectorsOperation,
        priority: this.deps.priority(),
        data: { database, restored_by: thisProcess() },
        metadata: { database },
      });
      return { database, restored_from: filename, safety_backup: safety, vector_task_id: task.task_id };
    });
  }

  remove(filename: string): Promise<void> {
    return this.#exclusive(async () => {
      fs.rmSync(this.locate(filename).path);
    });
  }

  /** Deletes all but the newest `keep` regular backups (safety copies are left alone); returns the names deleted. */
  prune(keep: number): Promise<string[]> {
    return this.#exclusive(async () => {
      const database = this.database;
      const excess = this.list()
        .filter((info) => info.kind === 'backup')
        .slice(keep);
      for (const { filename } of excess) fs.rmSync(path.join(this.#dir(database), filename), { force: true });
      return excess.map((info) => info.filename);
    });
  }

  /** When the newest regular backup of the active database was taken, or null. */
  latestBackupAt(): Date | null {
    const newest = this.list().find((info) => info.kind === 'backup');
    return newest ? new Date(newest.created_at) : null;
  }

  async #write(database: string, occasion: BackupOccasion, at: Date): Promise<BackupInfo> {
    const dir = this.#dir(database);
    fs.mkdirSync(dir, { recursive: true });
    const taken = new Set(fs.readdirSync(dir));
    // The connection readies the database (migrated) before it is copied.
    const db = await this.deps.databases.connection(database);
    let filename = '';
    for (const candidate of backupNames(occasion, at, backupExtension(db))) {
      if (taken.has(candidate)) continue;
      filename = candidate;
      break;
    }
    if (!filename) throw new Conflict('Too many backups were taken within one second');
    await writeBackup(db, this.deps.databases.paths.appDb(database), path.join(dir, filename));
    return this.#describe(database, filename)!;
  }

  #describe(database: string, filename: string): BackupInfo | null {
    const parsed = parseBackupName(filename);
    const stat = parsed && fs.lstatSync(path.join(this.#dir(database), filename), { throwIfNoEntry: false });
    if (!parsed || !stat?.isFile()) return null;
    return { filename, database, kind: parsed.kind, size: stat.size, created_at: parsed.takenAt.toISOString() };
  }

  #dir(database: string): string {
    return this.deps.databases.paths.operatorBackupsDir(database);
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const dir = this.#dir(this.database);
    const run = (changesInProgress.get(dir) ?? Promise.resolve()).then(work);
    const settled = run.catch(() => undefined);
    changesInProgress.set(dir, settled);
    void settled.then(() => {
      if (changesInProgress.get(dir) === settled) changesInProgress.delete(dir);
    });
    return run;
  }
}
