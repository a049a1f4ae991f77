import fs from 'node:fs';
import { BadInput, NotFound } from '@rhizome/contracts/errors';
import type { DatabaseHandle, SeedHook } from '../module/index.ts';
import type { DataPaths } from '../paths.ts';
import { Migrator, type ApplyResult, type Db, type Migration } from '../storage/index.ts';
import { databaseNamePattern, SqliteDatabaseStore } from './sqlite-store.ts';
import type { DatabaseInfo, DatabaseStore } from './store.ts';

export const defaultDatabaseName = 'default';

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
  /**
   * Told after a database was created, deleted or replaced, so other processes drop their connections
   * and read a server's catalogue again.
   */
  onReplaced?: (name: string) => Promise<void>;
  /** Where the databases are kept: SQLite files under the data directory unless a server's store is given. */
  store?: DatabaseStore;
}

/**
 * The databases of one data directory (docs/api-conventions.md#databases): one directory each, holding
 * `app.db` (or naming the schema that holds its tables on a PostgreSQL server), migrated and seeded
 * before first use. Connections are opened once per process and shared.
 */
export class DatabaseManager {
  private readonly store: DatabaseStore;
  private readonly open = new Map<string, Promise<Db>>();
  private readonly bulkWriters = new Map<string, Promise<Db>>();
  /** What readying each database applied in this process, for GET /upgrade/pending. */
  readonly startupResults = new Map<string, ApplyResult>();

  constructor(private readonly options: DatabaseManagerOptions) {
    this.store = options.store ?? new SqliteDatabaseStore(options.paths);
  }

  get paths(): DataPaths {
    return this.options.paths;
  }

  currentName(): string {
    return this.options.currentName();
  }

  migrator(name: string): Migrator {
    return new Migrator(this.paths.migrationBackupsDir(name), this.options.migrations, this.store.backups(name));
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
   * On a server the pool already runs statements side by side: the bulk writer is the connection itself.
   */
  bulkWriter(name: string): Promise<Db> {
    let pending = this.bulkWriters.get(name);
    if (!pending) {
      pending = this.connection(name).then((main) => this.store.bulkWriter(name, main));
      this.bulkWriters.set(name, pending);
      pending.catch(() => this.bulkWriters.delete(name));
    }
    return pending;
  }

  /** The databases that exist (on a server: as its catalogue was last read — `survey` reads it again). */
  list(): DatabaseInfo[] {
    return this.store
      .names()
      .map((name) => this.store.describe(name))
      .filter((info): info is DatabaseInfo => info?.exists === true)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** `list` with the catalogue read again, sizes included. */
  async survey(): Promise<DatabaseInfo[]> {
    await this.store.refresh();
    return this.list();
  }

  info(name: string): DatabaseInfo {
    const info = this.store.describe(name);
    if (!info) throw NotFound.resource('database', name);
    return info;
  }

  async create(name: string): Promise<DatabaseInfo> {
    if (!databaseNamePattern.test(name)) {
      throw BadInput.field('Database names may contain only letters, digits, underscores and hyphens (1-64)', 'name');
    }
    // `/databases/current` is the active database: a database of that name could never be read or deleted by name.
    if (name === 'current')
      throw BadInput.field("'current' is reserved: /databases/current names the active database", 'name');
    const refusal = this.store.refusal(name);
    if (refusal) throw BadInput.field(refusal, 'name');
    await this.store.refresh();
    if (this.store.describe(name)) throw BadInput.field(`Database '${name}' already exists`, 'name');
    await this.connection(name);
    await this.store.refresh();
    await this.options.onReplaced?.(name);
    return this.info(name);
  }

  async remove(name: string): Promise<void> {
    if (name === defaultDatabaseName) throw BadInput.field('The default database cannot be deleted', 'name');
    if (name === this.currentName()) throw BadInput.field('The active database cannot be deleted', 'name');
    await this.store.refresh();
    if (!this.store.describe(name)) throw BadInput.field(`Database '${name}' does not exist`, 'name');
    await this.closeOne(name);
    await this.store.drop(name);
    fs.rmSync(this.paths.databaseDir(name), { recursive: true, force: true });
    await this.options.onReplaced?.(name);
  }

  /** Makes `name` active; an existing directory lacking app.db gets one. */
  async switchTo(name: string): Promise<DatabaseInfo> {
    await this.store.refresh();
    this.info(name);
    await this.connection(name);
    if (name !== this.currentName()) await this.options.setCurrentName(name);
    return this.info(name);
  }

  /**
   * Replaces a database with a backup and reopens it: a pre-upgrade backup as restored, without
   * migrating it again (the next start-up or POST /upgrade/apply does that); with `ready`, migrated and
   * seeded as any database is when a process first opens it (an operator backup of an older revision).
   */
  async restore(name: string, backupFile: string, options: { ready?: boolean } = {}): Promise<Db> {
    await this.closeOne(name);
    await this.store.restore(name, backupFile);
    const db = options.ready ? this.connection(name) : this.store.open(name);
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
    await this.store.close();
  }

  private async ready(name: string): Promise<Db> {
    for (const dir of ['sources', 'vectors', 'backups']) {
      fs.mkdirSync(`${this.paths.databaseDir(name)}/${dir}`, { recursive: true });
    }
    const db = await this.store.open(name);
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
