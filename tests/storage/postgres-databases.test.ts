import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseManager, PostgresDatabaseStore } from '@rhizome/core/databases';
import { DataPaths } from '@rhizome/core/paths';
import { PostgresServer, shippedMigrations, type Migration } from '@rhizome/core/storage';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { sleep, until } from '../support/wait.ts';

const at = '2026-01-01T00:00:00.000Z';
const template = (id: string) => ({
  id,
  name: id,
  template_type: 'node',
  properties: '[]',
  created_at: at,
  updated_at: at,
});

/** Rhizome databases as schemas of one real PostgreSQL server, through the DatabaseManager. */
describe('databases on PostgreSQL', () => {
  let postgres: TestPostgres;
  let dataDir: string;
  const managers: DatabaseManager[] = [];
  let current = 'default';

  beforeAll(async () => {
    postgres = await startPostgres();
  }, 120_000);
  afterEach(async () => {
    while (managers.length) await managers.pop()!.close();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  function manager(migrations: Migration[] = shippedMigrations, maxConnections = 10) {
    const paths = new DataPaths(dataDir);
    const server = new PostgresServer(postgres.url, { maxConnections });
    const made = new DatabaseManager({
      paths,
      currentName: () => current,
      setCurrentName: async (name) => {
        current = name;
      },
      seeds: [],
      migrations,
      migrationPolicy: 'apply',
      store: new PostgresDatabaseStore(server, paths),
    });
    managers.push(made);
    return { databases: made, server };
  }

  const schemas = async (server: PostgresServer) =>
    (
      await server.query<{ nspname: string }>(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rhizome\\_%' ORDER BY 1",
      )
    ).map((row) => row.nspname);

  it('creates, lists with the server’s sizes, switches and deletes databases as schemas', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pgdb-'));
    const { databases, server } = manager();
    const { db } = await databases.current();
    expect(await db('knex_migrations').orderBy('id').pluck('name')).toEqual(shippedMigrations.map((m) => m.name));
    expect(await schemas(server)).toEqual(['rhizome_default']);

    const created = await databases.create('research');
    expect(created).toMatchObject({ name: 'research', exists: true, last_modified: null });
    expect(created.size).toBeGreaterThan(0);
    expect(await schemas(server)).toEqual(['rhizome_default', 'rhizome_research']);
    await expect(databases.create('research')).rejects.toThrow("Database 'research' already exists");
    await expect(databases.create('x'.repeat(56))).rejects.toThrow('at most 55 characters on PostgreSQL');

    const research = await databases.connection('research');
    const before = databases.info('research').size;
    await research('graph_templates').insert(
      Array.from({ length: 2000 }, (_, index) => ({ ...template(`t${index}`), description: 'x'.repeat(200) })),
    );
    const listed = await databases.survey();
    expect(listed.map((info) => info.name)).toEqual(['default', 'research']);
    expect(listed[1].size).toBeGreaterThan(before + 2000 * 200);

    expect(await databases.switchTo('research')).toMatchObject({ name: 'research' });
    expect(current).toBe('research');
    await expect(databases.remove('default')).rejects.toThrow('The default database cannot be deleted');
    await expect(databases.remove('research')).rejects.toThrow('The active database cannot be deleted');
    await expect(databases.switchTo('missing')).rejects.toThrow(/missing/);
    await databases.switchTo('default');
    await databases.remove('research');
    expect(await schemas(server)).toEqual(['rhizome_default']);
    expect(databases.list().map((info) => info.name)).toEqual(['default']);
    await expect(databases.remove('research')).rejects.toThrow("Database 'research' does not exist");
  });

  it('keeps each database to its own schema on connections the pool shares', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pgdb-'));
    const { databases, server } = manager(shippedMigrations, 3);
    const names = ['alpha', 'beta', 'gamma'];
    for (const [index, name] of names.entries()) {
      await databases.create(name);
      const db = await databases.connection(name);
      await db('graph_templates').insert(Array.from({ length: index + 1 }, (_, n) => template(`${name}-${n}`)));
    }
    const counts = await Promise.all(
      Array.from({ length: 60 }, async (_, n) => {
        const name = names[n % 3];
        const db = await databases.connection(name);
        const [{ count }] = (await db('graph_templates').count({ count: '*' })) as { count: number }[];
        return `${name}:${count}`;
      }),
    );
    expect(new Set(counts)).toEqual(new Set(['alpha:1', 'beta:2', 'gamma:3']));
    expect(server.pool.totalCount).toBeLessThanOrEqual(3);
  });

  it('lets one writing transaction at a time into a database, as BEGIN IMMEDIATE does on SQLite', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pgdb-'));
    const { databases } = manager();
    const db = await databases.connection('default');
    const other = await databases.create('other').then(() => databases.connection('other'));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = db.transaction(async (trx) => {
      await trx('graph_templates').insert(template('first'));
      await held;
    });
    const advisoryLocks = async () =>
      Number(
        (await postgres.superuser("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")).trim(),
      );
    await until(async () => (await advisoryLocks()) === 1, { what: 'the first transaction to hold the lock' });
    const events: string[] = [];
    const second = db.transaction(async (trx) => {
      events.push('second began');
      await trx('graph_templates').insert(template('second'));
    });
    // Neither another database's writer nor a reader of this one waits for the holder.
    await other.transaction(async (trx) => {
      await trx('graph_templates').insert(template('elsewhere'));
    });
    await db.transaction(async (trx) => events.push(`read ${(await trx('graph_templates').pluck('id')).length}`), {
      readOnly: true,
    });
    await sleep(300);
    expect(events).toEqual(['read 0']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['read 0', 'second began']);
    expect(await db('graph_templates').orderBy('id').pluck('id')).toEqual(['first', 'second']);
  });

  it('backs a schema up with pg_dump before migrating it, and rolls it back to that', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pgdb-'));
    const first = manager();
    const db = await first.databases.connection('default');
    await db('graph_templates').insert([template('kept'), template('renamed')]);
    const rowsBefore = await db('graph_templates').orderBy('id').select('id', 'name', 'rowid');
    await first.databases.close();
    managers.pop();

    const addNotes: Migration = {
      name: '9001_notes',
      up: async (trx: Knex) => {
        await trx.schema.createTable('notes', (table) => table.string('id').primary());
        await trx('graph_templates').where({ id: 'renamed' }).update({ name: 'after the upgrade' });
      },
      down: async () => {},
    };
    const upgraded = manager([...shippedMigrations, addNotes]);
    const migrated = await upgraded.databases.connection('default');
    const result = upgraded.databases.startupResults.get('default')!;
    expect(result.applied).toEqual(['9001_notes']);
    expect(path.basename(result.backup_path!)).toMatch(/^pre-9001-\d{8}T\d{6}Z\.sql$/);
    expect(upgraded.databases.migrator('default').latestBackup()).toBe(result.backup_path);
    expect(await migrated.schema.hasTable('notes')).toBe(true);
    await migrated('notes').insert({ id: 'written after the upgrade' });

    const restored = await upgraded.databases.restore('default', result.backup_path!);
    expect(await restored.schema.hasTable('notes')).toBe(false);
    expect(await restored('graph_templates').orderBy('id').select('id', 'name', 'rowid')).toEqual(rowsBefore);
    expect(await restored('knex_migrations').orderBy('id').pluck('name')).toEqual(shippedMigrations.map((m) => m.name));
    // The identity behind rowid is restored too: new rows still number after the old ones.
    await restored('graph_templates').insert(template('new'));
    const [newRow] = await restored('graph_templates').where({ id: 'new' }).select('rowid');
    expect(newRow.rowid).toBeGreaterThan(Math.max(...rowsBefore.map((row) => row.rowid as number)));
    expect((await upgraded.databases.migrator('default').status(restored)).pending).toEqual(['9001_notes']);
  });
});
