import fs from 'node:fs';
import { BadInput, NotFound } from '@rhizome/contracts/errors';
import type { DatabaseHandle, SeedHook } from '../module/index.ts';
import type { DataPaths } from '../paths.ts';
import { openSqlite, type Db } from '../storage/index.ts';
import { Migrator, restoreSqliteFile, type ApplyResult } from '../storage/index.ts';
import type { Migration } from '../storage/index.ts';

export const defaultDatabaseName = 'default';
const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

export interface DatabaseInfo {
  name: string;
  path: string;
  exists: boolean;
  size: number;
  last_modified: string | null;
}

/**
 * `apply`: this process owns schema migrations (the API server, the embedded default, `rhizome upgrade`).
 * `wait`: another process does; wait until it has (the worker). `none`: open as is (inspection commands).
 */
export type MigrationPolicy = 'apply' | 'wait' | 'none';

export interface DatabaseManagerOptions {
  paths: DataPaths;
  currentName: () => string;
  setCurrentName: (name: string) => Promise<void>;
  seeds: SeedHook[];
  migrations?: Migration[];
  migrationPolicy: MigrationPolicy;
  /** Told after a database's file was deleted or replaced, so other processes drop their connections. */
  onReplaced?: (name: string) => Promise<void>;
}

/**
 * The databases of one data directory (docs/api-conventions.md#databases): one directory and `app.db` each,
 * migrated and seeded before first use. Connections are opened once per process and shared.
 */
export class DatabaseManager {
  private readonly open = new Map<string, Promise<Db>>();
  private readonly bulkWriters = new Map<string, Promise<Db>>();
  /** What readying each database applied in this process, for GET /upgrade/pending. */
  readonly startupResults = new Map<string, ApplyResult>();

  constructor(private readonly options: DatabaseManagerOptions) {}

  get paths(): DataPaths {
    return this.options.paths;
  }

  currentName(): string {
    return this.options.currentName();
  }

  migrator(name: string): Migrator {
    return new Migrator(this.paths.migrationBackupsDir(name), this.options.migrations);
  }

  /** The active database, fixed for the caller even if another request switches it meanwhile. */
  async current(): Promise<DatabaseHandle> {
    const name = this.currentName();
    return { name, db: await this.connection(name) };
  }

  connection(name: string): Promise<Db> {
    let pending = this.open.get(name);
    if (!pending) {
      pending = this.ready(name);
      this.open.set(name, pending);
      pending.catch(() => this.open.delete(name));
    }
    return pending;
  }

  /**
   * A second connection to `name`, shared by this process's bulk writers (indexing, package imports), so the API's reads
   * do not queue behind their statements (WAL). One per database: every transaction begins IMMEDIATE and
   * waits for the lock inside a libuv thread, so a connection per writer could fill the thread pool with
   * waiters while the holder's next statement has no thread to run on; with one, the writers queue on it.
   */
  bulkWriter(name: string): Promise<Db> {
    let pending = this.bulkWriters.get(name);
    if (!pending) {
      pending = this.connection(name).then(() => openSqlite(this.paths.appDb(name)));
      this.bulkWriters.set(name, pending);
      pending.catch(() => this.bulkWriters.delete(name));
    }
    return pending;
  }

  list(): DatabaseInfo[] {
    if (!fs.existsSync(this.paths.databasesDir)) return [];
    return fs
      .readdirSync(this.paths.databasesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && namePattern.test(entry.name))
      .map((entry) => this.describe(entry.name))
      .filter((info) => info.exists)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  info(name: string): DatabaseInfo {
    if (!namePattern.test(name) || !fs.existsSync(this.paths.databaseDir(name)))
      throw NotFound.resource('database', name);
    return this.describe(name);
  }

  async create(name: string): Promise<DatabaseInfo> {
    if (!namePattern.test(name)) {
      throw BadInput.field('Database names may contain only letters, digits, underscores and hyphens (1-64)', 'name');
    }
    // `/databases/current` is the active database: a database of that name could never be read or deleted by name.
    if (name === 'current')
      throw BadInput.field("'current' is reserved: /databases/current names the active database", 'name');
    if (fs.existsSync(this.paths.databaseDir(name))) throw BadInput.field(`Database '${name}' already exists`, 'name');
    await this.connection(name);
    return this.describe(name);
  }

  async remove(name: string): Promise<void> {
    if (name === defaultDatabaseName) throw BadInput.field('The default database cannot be deleted', 'name');
    if (name === this.currentName()) throw BadInput.field('The active database cannot be deleted', 'name');
    if (!namePattern.test(name) || !fs.existsSync(this.paths.databaseDir(name))) {
      throw BadInput.field(`Database '${name}' does not exist`, 'name');
    }
    await this.closeOne(name);
    fs.rmSync(this.paths.databaseDir(name), { recursive: true, force: true });
    await this.options.onReplaced?.(name);
  }

  /** Makes `name` active; an existing directory lacking app.db gets one. */
  async switchTo(name: string): Promise<DatabaseInfo> {
    const info = this.info(name);
    await this.connection(name);
    if (name !== this.currentName()) await this.options.setCurrentName(name);
    return info.exists ? info : this.describe(name);
  }

  /**
   * Replaces a database with a backup and reopens it: a pre-upgrade backup as restored, without
   * migrating it again (the next start-up or POST /upgrade/apply does that); with `ready`, migrated and
   * seeded as any database is when a process first opens it (an operator backup of an older revision).
   */
  async restore(name: string, backupFile: string, options: { ready?: boolean } = {}): Promise<Db> {
    await this.closeOne(name);
    restoreSqliteFile(backupFile, this.paths.appDb(name));
    const db = options.ready ? this.connection(name) : Promise.resolve(openSqlite(this.paths.appDb(name)));
    this.open.set(name, db);
    await this.options.onReplaced?.(name);
    return db;
  }

  async closeOne(name: string): Promise<void> {
    const connections = [this.open.get(name), this.bulkWriters.get(name)];
    this.open.delete(name);
    this.bulkWriters.delete(name);
    await Promise.all(connections.map(async (pending) => (await pending?.catch(() => undefined))?.destroy()));
  }

  async close(): Promise<void> {
    await Promise.all(
      [...new Set([...this.open.keys(), ...this.bulkWriters.keys()])].map((name) => this.closeOne(name)),
    );
  }

  private describe(name: string): DatabaseInfo {
    const file = this.paths.appDb(name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return {
      name,
      path: this.paths.databaseDir(name),
      exists: stat !== undefined,
      size: stat?.size ?? 0,
      last_modified: stat ? stat.mtime.toISOString() : null,
    };
  }

  private async ready(name: string): Promise<Db> {
    for (const dir of ['sources', 'vectors', 'backups']) {
      fs.mkdirSync(`${this.paths.databaseDir(name)}/${dir}`, { recursive: true });
    }
    const db = openSqlite(this.paths.appDb(name));
    try {
      const policy = this.options.migrationPolicy;
      if (policy === 'none') return db;
      if (policy === 'apply') this.startupResults.set(name, await applyWhenUnlocked(this.migrator(name), db));
      else await waitUntilMigrated(this.migrator(name), db);
      if (policy === 'apply') for (const seed of this.options.seeds) await seed(db, name);
      return db;
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
}

/** Two processes readying one database race for knex's migration lock; the loser waits and re-checks. */
async function applyWhenUnlocked(migrator: Migrator, db: Db): Promise<ApplyResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await migrator.apply(db);
    } catch (error) {
      const locked = error instanceof Error && /already locked/i.test(error.message);
      if (!locked || attempt >= 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function waitUntilMigrated(migrator: Migrator, db: Db): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const status = await migrator.status(db).catch(() => undefined);
    if (status && status.pending.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the database was not migrated by the API server within 120 s');
}
