import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '@rhizome/core/storage';
import { Migrator } from '@rhizome/core/storage';
import { revisionOf, shippedMigrations, type Migration } from '@rhizome/core/storage';
import { runCli } from '@rhizome/cli/main';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

const shippedNames = shippedMigrations.map((migration) => migration.name);
const latestRevision = revisionOf(shippedNames.at(-1)!);

const addNotes: Migration = {
  name: '9001_add_notes',
  up: async (db: Knex) => {
    await db.schema.createTable('notes', (table) => table.string('id').primary());
  },
  down: async () => {},
};

describe('schema migrations', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it('applies pending migrations after writing a pre-<rev>-<ts>.db backup that rollback restores', async () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'app.db');
    const backups = path.join(dir, 'backups');
    let db = openSqlite(file);
    cleanups.push(() => db.destroy());
    const baseline = new Migrator(backups, shippedMigrations);
    expect(await baseline.apply(db)).toMatchObject({
      applied: shippedNames,
      current_revision: latestRevision,
      backup_path: null,
    });
    await db('graph_templates').insert({
      id: 'tpl',
      name: 'kept',
      template_type: 'node',
      properties: '[]',
      created_at: 'x',
      updated_at: 'x',
    });

    const upgraded = new Migrator(backups, [...shippedMigrations, addNotes]);
    expect((await upgraded.status(db)).pending).toEqual(['9001_add_notes']);
    const result = await upgraded.apply(db);
    expect(result.applied).toEqual(['9001_add_notes']);
    expect(result.current_revision).toBe('9001');
    expect(path.basename(result.backup_path!)).toMatch(/^pre-9001-\d{8}T\d{6}Z\.db$/);
    expect(await db.schema.hasTable('notes')).toBe(true);
    expect(upgraded.latestBackup()).toBe(result.backup_path);

    await db.destroy();
    const { restoreSqliteFile } = await import('@rhizome/core/storage');
    restoreSqliteFile(result.backup_path!, file);
    db = openSqlite(file);
    expect(await db.schema.hasTable('notes')).toBe(false);
    expect(await db('graph_templates').pluck('name')).toEqual(['kept']);
    expect((await upgraded.status(db)).current_revision).toBe(latestRevision);
  });

  it('re-stamps a database recorded at a revision no longer shipped to the baseline', async () => {
    const dir = tempDataDir();
    const db = openSqlite(path.join(dir, 'app.db'));
    cleanups.push(() => db.destroy());
    const migrator = new Migrator(path.join(dir, 'backups'));
    await migrator.apply(db);
    await db('knex_migrations').insert({ name: '0000_ancient', batch: 1, migration_time: new Date() });
    expect(await migrator.status(db)).toMatchObject({
      current_revision: latestRevision,
      applied: shippedNames,
      pending: [],
    });
  });

  it('serves /upgrade/pending, /upgrade/apply and a 404 rollback without a backup', async () => {
    const server: TestServer = await startTestServer();
    cleanups.push(() => server.stop());
    const cookie = await setUpAccount(server);
    const pending = await server.call('GET', '/upgrade/pending', { cookie });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      ready: true,
      blocked_on: [],
      last_backup: null,
      last_applied: shippedNames,
      data_changing: false,
    });
    const applied = await server.call('POST', '/upgrade/apply', { cookie });
    expect(applied.body).toEqual({ applied: [], current_revision: latestRevision, backup_path: null });
    const rollback = await server.call('POST', '/upgrade/rollback', { cookie });
    expect(rollback.status).toBe(404);
    expect(rollback.body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('upgrades at start-up behind a backup, and POST /upgrade/rollback restores the pre-upgrade file', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({ dataDir });
    const cookie = await setUpAccount(first);
    await first.stop();

    const { startEmbedded } = await import('@rhizome/cli/embedded');
    const env = { ...process.env, RHIZOME_DATA_DIR: dataDir };
    const second = await startEmbedded({ host: '127.0.0.1', port: 0 }, env, [...shippedMigrations, addNotes]);
    cleanups.push(() => second.stop());
    const base = `${second.url}/api/v1`;
    const pending = await (await fetch(`${base}/upgrade/pending`, { headers: { cookie } })).json();
    expect(pending.last_applied).toEqual(['9001_add_notes']);
    expect(path.basename(pending.last_backup)).toMatch(/^pre-9001-/);
    const db = await second.platform.databases.connection('default');
    expect(await db.schema.hasTable('notes')).toBe(true);

    const rollback = await fetch(`${base}/upgrade/rollback`, { method: 'POST', headers: { cookie } });
    expect(rollback.status).toBe(200);
    expect(await rollback.json()).toMatchObject({ restored_from: pending.last_backup, revision: latestRevision });
    const restored = await second.platform.databases.connection('default');
    expect(await restored.schema.hasTable('notes')).toBe(false);
    expect(
      await restored('graph_templates').where({ id: 'system_template_item' }).count({ n: '*' }).first(),
    ).toMatchObject({ n: 1 });
  });

  it('reports and rolls back through the rhizome CLI', async () => {
    const dataDir = tempDataDir();
    const server = await startTestServer({ dataDir });
    await server.stop();
    const previous = process.env.RHIZOME_DATA_DIR;
    process.env.RHIZOME_DATA_DIR = dataDir;
    cleanups.push(async () => {
      // Assigning undefined would store the string "undefined" for the next test file of this worker.
      if (previous === undefined) delete process.env.RHIZOME_DATA_DIR;
      else process.env.RHIZOME_DATA_DIR = previous;
    });
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await runCli(
        ['db', 'migrate', 'status'],
        (line) => out.push(line),
        (line) => err.push(line),
      ),
    ).toBe(0);
    expect(out.join('\n')).toContain(
      `default: revision ${latestRevision}; applied ${shippedNames.join(', ')}; pending -`,
    );
    expect(
      await runCli(
        ['db', 'migrate', 'rollback'],
        (line) => out.push(line),
        (line) => err.push(line),
      ),
    ).toBe(1);
    expect(err.join('\n')).toMatch(/No pre-upgrade backup for database 'default'/);
    expect(await runCli(['upgrade'], (line) => out.push(line))).toBe(0);
    expect(out.at(-1)).toBe('default: up to date');
    expect(await runCli(['db', 'migrate', 'apply'], (line) => out.push(line))).toBe(0);
    expect(out.at(-1)).toBe('default: up to date');
    expect(fs.existsSync(path.join(dataDir, 'databases', 'default', 'app.db'))).toBe(true);
  });
});
