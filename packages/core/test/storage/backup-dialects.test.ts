import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedTaskStore, OperationRegistry, QueueService } from '@rhizome/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupService } from '../../src/backup/service.ts';
import { DatabaseManager, PostgresDatabaseStore } from '../../src/databases/index.ts';
import { DataPaths } from '../../src/paths.ts';
import { PostgresServer, type Db } from '../../src/storage/index.ts';
import { dialects } from '../../../../tests/support/dialects.ts';
import { startPostgres, type TestPostgres } from '../../../../tests/support/postgres.ts';

const at = '2026-01-01T00:00:00.000Z';
const extension = { sqlite: '.db', postgres: '.sql' } as const;

/**
 * Operator backups of a database and their restore on both dialects: a copy of the SQLite file, or a
 * pg_dump of the database's schema replayed by psql in one transaction.
 */
describe.each(dialects)('backups on %s', (dialect) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rhizome-backup-${dialect}-`));
  const paths = new DataPaths(dataDir);
  let server: TestPostgres | undefined;
  let databases: DatabaseManager;
  let tasks: EmbeddedTaskStore;
  const service = (database: string) =>
    new BackupService({
      databases,
      queue: new QueueService(tasks, new OperationRegistry(), () => ({ operations: 5, llm: 5 })),
      priority: () => 50,
      database,
    });
  const titles = async (db: Db) => (await db('sources').orderBy('id').pluck('title')) as string[];
  const entityTags = async (db: Db) =>
    (await db('node_tag_links as l').join('node_tags as t', 't.id', 'l.tag_id').select('l.node_id', 't.name')) as {
      node_id: string;
      name: string;
    }[];
  const addSource = (db: Db, id: string) => db('sources').insert({ id, title: id, created_at: at, updated_at: at });

  beforeAll(async () => {
    if (dialect === 'postgres') server = await startPostgres();
    tasks = await EmbeddedTaskStore.open(path.join(dataDir, 'tasks.db'));
    databases = new DatabaseManager({
      paths,
      currentName: () => 'default',
      setCurrentName: async () => undefined,
      seeds: [],
      migrationPolicy: 'apply',
      ...(server ? { store: new PostgresDatabaseStore(new PostgresServer(server.url), paths) } : {}),
    });
    const db = await databases.connection('default');
    await addSource(db, 'kept');
    await db('graph_templates').insert({
      id: 'person',
      name: 'Person',
      template_type: 'node',
      properties: '[]',
      created_at: at,
      updated_at: at,
    });
    await db('graph_nodes').insert({ id: 'ada', template_id: 'person', label: 'Ada', created_at: at, updated_at: at });
    await db('node_tags').insert({
      id: 'ntag_maths',
      name: 'Maths',
      name_key: 'maths',
      created_at: at,
      updated_at: at,
    });
    await db('node_tag_links').insert({ node_id: 'ada', tag_id: 'ntag_maths' });
  }, 120_000);
  afterAll(async () => {
    await databases.close();
    await tasks.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('backs up, restores, and restores the safety copy the restore took', async () => {
    const backups = service('default');
    const taken = await backups.create('backup', new Date('2026-03-04T05:06:07Z'));
    expect(taken).toMatchObject({ filename: `app_20260304_050607${extension[dialect]}`, kind: 'backup' });
    expect(taken.size).toBeGreaterThan(0);
    expect(fs.statSync(path.join(paths.operatorBackupsDir('default'), taken.filename)).mode & 0o777).toBe(0o600);

    const db = await databases.connection('default');
    await db('sources').where({ id: 'kept' }).delete();
    await addSource(db, 'later');
    await db('graph_nodes').update({ label: 'Ada Lovelace' });
    await db('node_tags').delete();

    const restored = await backups.restore(taken.filename);
    expect(restored).toMatchObject({ database: 'default', restored_from: taken.filename });
    expect(restored.safety_backup.filename).toMatch(new RegExp(`^pre-restore_\\d{8}_\\d{6}\\${extension[dialect]}$`));
    expect(await tasks.get(restored.vector_task_id)).toMatchObject({ operation: 'backup.rebuild_vectors' });
    const back = await databases.connection('default');
    expect(await titles(back)).toEqual(['kept']);
    expect(await back('graph_nodes').pluck('label')).toEqual(['Ada']);
    expect(await entityTags(back)).toEqual([{ node_id: 'ada', name: 'Maths' }]);
    // What the database counts on keeps working after the restore: triggers, keys, the full-text index.
    await back('graph_edges').insert({
      id: 'self',
      template_id: 'person',
      source_node_id: 'ada',
      target_node_id: 'ada',
      label: 'knows',
      created_at: at,
      updated_at: at,
    });
    expect(await back('graph_nodes').pluck('degree')).toEqual([2]);
    await expect(addSource(back, 'kept')).rejects.toThrow();

    await backups.restore(restored.safety_backup.filename);
    const undone = await databases.connection('default');
    expect(await titles(undone)).toEqual(['later']);
    expect(await undone('graph_nodes').pluck('label')).toEqual(['Ada Lovelace']);
    expect(await entityTags(undone)).toEqual([]);
    expect(backups.list().map((info) => info.kind)).toEqual(['safety', 'safety', 'backup']);
  });

  it('refuses a file that is not a backup of a Rhizome database, changing nothing', async () => {
    const backups = service('default');
    const before = await titles(await databases.connection('default'));
    const broken = `app_20260101_000000${extension[dialect]}`;
    fs.writeFileSync(path.join(paths.operatorBackupsDir('default'), broken), 'not a database\n');
    await expect(backups.restore(broken)).rejects.toMatchObject({
      kind: 'bad_input',
      message: expect.stringMatching(new RegExp(`^Backup '${broken}' cannot be restored: `)),
    });
    expect(await titles(await databases.connection('default'))).toEqual(before);
    await expect(backups.restore('../app.db')).rejects.toMatchObject({ kind: 'bad_input' });
    await expect(backups.restore('app_20260101_000001.db.gz')).rejects.toMatchObject({ kind: 'bad_input' });
  });

  it.runIf(dialect === 'postgres')("refuses another database's dump: it would replay into that schema", async () => {
    await databases.create('other');
    const taken = await service('other').create('backup', new Date('2026-05-06T07:08:09Z'));
    const copied = 'app_20260506_070809.sql';
    fs.copyFileSync(
      path.join(paths.operatorBackupsDir('other'), taken.filename),
      path.join(paths.operatorBackupsDir('default'), copied),
    );
    await expect(service('default').restore(copied)).rejects.toMatchObject({
      kind: 'bad_input',
      message: `Backup '${copied}' cannot be restored: it is not a dump of this database (schema rhizome_default)`,
    });
  });
});
