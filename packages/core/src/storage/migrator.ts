import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { sqliteBackups, type DatabaseBackups } from './backups.ts';
import type { Db } from './connection.ts';
import { bodyFor } from './migrations/dialect-bodies.ts';
import { revisionOf, shippedMigrations, type Migration } from './migrations/index.ts';

const migrationsTable = 'knex_migrations' as const;

export interface MigrationStatus {
  current_revision: string | null;
  applied: string[];
  pending: string[];
}

export interface ApplyResult {
  applied: string[];
  current_revision: string | null;
  backup_path: string | null;
}

/**
 * Applies the shipped knex migrations to one database, each revision's body for the database's dialect.
 * Before pending migrations touch a database that already has data, it writes
 * `backups/pre-<first pending revision>-<timestamp>.db` (`.sql` on PostgreSQL); rollback restores the
 * newest such file (docs/api-conventions.md#versioning-and-migrations).
 */
export class Migrator {
  constructor(
    private readonly backupsDir: string,
    private readonly migrations: Migration[] = shippedMigrations,
    private readonly backups: DatabaseBackups = sqliteBackups,
  ) {}

  private config(): Knex.MigratorConfig {
    const byName = new Map(
      this.migrations.map((migration) => [migration.name, bodyFor(migration, this.backups.dialect)]),
    );
    return {
      tableName: migrationsTable,
      migrationSource: {
        getMigrations: async () => this.migrations.map((migration) => migration.name),
        getMigrationName: (name: string) => name,
        getMigration: async (name: string) => byName.get(name)!,
      },
    };
  }

  async status(db: Db): Promise<MigrationStatus> {
    await this.restampUnknownRevisions(db);
    // With a custom migration source, knex lists pending migrations as the source returned them: names.
    const [completed, pending] = (await db.migrate.list(this.config())) as [{ name: string }[], string[]];
    const applied = completed.map((entry) => entry.name);
    return {
      current_revision: applied.length ? revisionOf(applied[applied.length - 1]) : null,
      applied,
      pending,
    };
  }

  /** Applies everything pending; `alreadyBackedUp` skips the backup when the caller just wrote one. */
  async apply(db: Db, options: { alreadyBackedUp?: boolean } = {}): Promise<ApplyResult> {
    const before = await this.status(db);
    if (before.pending.length === 0)
      return { applied: [], current_revision: before.current_revision, backup_path: null };
    let backupPath: string | null = null;
    if (before.applied.length > 0 && !options.alreadyBackedUp) {
      const name = `pre-${revisionOf(before.pending[0])}-${compactTimestamp()}${this.backups.extension}`;
      backupPath = path.join(this.backupsDir, name);
      await this.backups.write(db, backupPath);
    }
    await db.migrate.latest(this.config());
    const after = await this.status(db);
    return { applied: before.pending, current_revision: after.current_revision, backup_path: backupPath };
  }

  /** The newest pre-upgrade backup, or null. */
  latestBackup(): string | null {
    if (!fs.existsSync(this.backupsDir)) return null;
    const stamp = (name: string) => name.slice(9, 25);
    const files = fs
      .readdirSync(this.backupsDir)
      .filter((name) => /^pre-\d{4}-\d{8}T\d{6}Z\.[a-z]+$/.test(name) && name.endsWith(this.backups.extension))
      .sort((a, b) => stamp(a).localeCompare(stamp(b)));
    return files.length ? path.join(this.backupsDir, files[files.length - 1]) : null;
  }

  /**
   * A database stamped with revisions the shipped migrations no longer contain (older than the
   * consolidated baseline) is re-stamped to the baseline without touching its data.
   */
  private async restampUnknownRevisions(db: Db): Promise<void> {
    if (!(await db.schema.hasTable(migrationsTable))) return;
    const known = new Set(this.migrations.map((migration) => migration.name));
    const applied = await db(migrationsTable).pluck('name');
    const unknown = applied.filter((name) => !known.has(name));
    if (unknown.length === 0) return;
    const baseline = this.migrations[0].name;
    await db.transaction(async (trx) => {
      await trx(migrationsTable).whereIn('name', unknown).delete();
      if (!applied.includes(baseline)) {
        await trx(migrationsTable).insert({ name: baseline, batch: 1, migration_time: new Date() });
      }
    });
  }
}

/** Replaces a closed database file with a backup copy; stale WAL and shared-memory files go too. */
export function restoreSqliteFile(backup: string, target: string): void {
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
  const temp = `${target}.restore.tmp`;
  fs.copyFileSync(backup, temp);
  fs.renameSync(temp, target);
}

export function compactTimestamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}
