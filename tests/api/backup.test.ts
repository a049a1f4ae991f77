import fs from 'node:fs';
import path from 'node:path';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { waitForTask } from '../support/wait.ts';

interface BackupInfo {
  filename: string;
  database: string;
  kind: 'backup' | 'safety';
  size: number;
  created_at: string;
}

interface NodeBody {
  id: string;
  label: string;
  properties: Record<string, unknown>;
}

describe('backups', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const backupsDir = () => path.join(server.dataDir, 'backups', 'default');

  const nodes = async () => {
    const result = await call('GET', '/nodes?page_size=1000');
    expect(result.status).toBe(200);
    return (result.body as { data: NodeBody[] }).data
      .map(({ id, label, properties }) => ({ id, label, properties }))
      .sort((a, b) => a.id.localeCompare(b.id));
  };
  const createNode = async (label: string) => {
    const result = await call('POST', '/nodes', {
      template_id: 'system_template_item',
      label,
      properties: { definition: `about ${label}` },
    });
    expect(result.status).toBe(201);
    return (result.body as NodeBody).id;
  };
  const list = async () => {
    const result = await call('GET', '/backup');
    expect(result.status).toBe(200);
    return result.body as { data: BackupInfo[]; pagination: { total: number } };
  };
  const nodeIndexCount = () =>
    (
      JSON.parse(
        fs.readFileSync(path.join(server.dataDir, 'databases', 'default', 'vectors', 'nodes.meta.json'), 'utf8'),
      ) as { count: number }
    ).count;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  let backup: BackupInfo;
  let atBackup: Awaited<ReturnType<typeof nodes>>;

  it('creates a consistent copy of the active database, named by its UTC time', async () => {
    await createNode('Ada Lovelace');
    await createNode('Analytical Engine');
    expect((await call('POST', '/search/embeddings')).status).toBe(200);
    atBackup = await nodes();

    const before = Date.now();
    const created = await call('POST', '/backup');
    expect(created.status).toBe(201);
    backup = created.body as BackupInfo;
    expect(backup).toMatchObject({ database: 'default', kind: 'backup' });
    expect(backup.filename).toMatch(/^app_\d{8}_\d{6}\.db$/);
    expect(Math.abs(Date.parse(backup.created_at) - before)).toBeLessThan(5_000);
    const file = path.join(backupsDir(), backup.filename);
    expect(fs.statSync(file).size).toBe(backup.size);
    expect(fs.readFileSync(file).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('takes a second backup within the same second under a distinct name', async () => {
    const [first, second] = await Promise.all([call('POST', '/backup'), call('POST', '/backup')]);
    const names = [(first.body as BackupInfo).filename, (second.body as BackupInfo).filename];
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect((await call('DELETE', `/backup/${name}`)).status).toBe(204);
  });

  it('lists backups with size and time, newest first', async () => {
    const listed = await list();
    expect(listed.data).toEqual([backup]);
    expect(listed.pagination).toMatchObject({ total: 1, page: 1 });
  });

  it('downloads a backup as an attachment, byte for byte', async () => {
    const response = await fetch(`${server.base}/backup/${backup.filename}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain(backup.filename);
    expect(response.headers.get('content-type')).toContain('application/vnd.sqlite3');
    expect(
      Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(path.join(backupsDir(), backup.filename))),
    ).toBe(true);
  });

  it('restores the data as it was at the backup, keeping a safety copy of what it replaced, and rebuilds the vector index', async () => {
    const [first] = atBackup;
    expect((await call('PATCH', `/nodes/${first.id}`, { label: 'Renamed after the backup' })).status).toBe(200);
    await createNode('Created after the backup');
    expect((await call('POST', '/search/embeddings')).status).toBe(200);
    const changed = await nodes();
    expect(changed).not.toEqual(atBackup);

    const restored = await call('POST', `/backup/${backup.filename}/restore`);
    expect(restored.status).toBe(200);
    const body = restored.body as {
      database: string;
      restored_from: string;
      safety_backup: BackupInfo;
      vector_task_id: string;
    };
    expect(body).toMatchObject({
      database: 'default',
      restored_from: backup.filename,
      safety_backup: { kind: 'safety' },
    });
    expect(body.safety_backup.filename).toMatch(/^pre-restore_\d{8}_\d{6}\.db$/);
    expect(await nodes()).toEqual(atBackup);

    expect(await waitForTask(call, body.vector_task_id)).toMatchObject({ status: 'completed' });
    const rebuilt = await call('GET', `/queue/tasks/${body.vector_task_id}/result`);
    expect(rebuilt.body).toMatchObject({ result: { database: 'default', vectors: { nodes: atBackup.length } } });
    expect(nodeIndexCount()).toBe(atBackup.length);

    // The safety copy undoes the restore.
    const undone = await call('POST', `/backup/${body.safety_backup.filename}/restore`);
    expect(undone.status).toBe(200);
    expect(await nodes()).toEqual(changed);
    await waitForTask(call, (undone.body as { vector_task_id: string }).vector_task_id);
    expect(nodeIndexCount()).toBe(changed.length);
    expect((await list()).data.map((info) => info.kind).sort()).toEqual(['backup', 'safety', 'safety']);
  });

  it('answers 404 for a backup that does not exist, changing nothing', async () => {
    const before = await nodes();
    const files = fs.readdirSync(backupsDir()).sort();
    for (const [method, suffix] of [
      ['POST', '/restore'],
      ['GET', ''],
      ['DELETE', ''],
    ] as const) {
      const result = await call(method, `/backup/app_20200101_000000.db${suffix}`);
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({
        error: 'NOT_FOUND',
        details: { resource_type: 'backup', identifier: 'app_20200101_000000.db' },
      });
    }
    expect(await nodes()).toEqual(before);
    expect(fs.readdirSync(backupsDir()).sort()).toEqual(files);
  });

  it.each([
    '..%2F..%2Fsettings.json',
    '..%2Fdefault%2Fapp.db',
    '%2Fetc%2Fpasswd',
    '..%5C..%5Capp.db',
    'app_20200101_000000.db%00.txt',
    `app_20200101_000000.db.partial`,
    'app_20261340_256199.db',
    'app.db',
  ])('refuses the file name %s with 400 on every endpoint', async (name) => {
    const before = await nodes();
    for (const [method, suffix] of [
      ['POST', '/restore'],
      ['GET', ''],
      ['DELETE', ''],
    ] as const) {
      const result = await call(method, `/backup/${name}${suffix}`);
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'filename' } });
    }
    expect(await nodes()).toEqual(before);
    expect(fs.existsSync(path.join(server.dataDir, 'credentials.json'))).toBe(true);
  });

  it('does not follow a link planted in the backups directory', async () => {
    const link = path.join(backupsDir(), 'app_20200102_000000.db');
    fs.symlinkSync(path.join(server.dataDir, 'databases', 'default', 'app.db'), link);
    try {
      expect((await call('GET', '/backup/app_20200102_000000.db')).status).toBe(404);
      expect((await call('POST', '/backup/app_20200102_000000.db/restore')).status).toBe(404);
      expect((await list()).data.map((info) => info.filename)).not.toContain('app_20200102_000000.db');
    } finally {
      fs.rmSync(link);
    }
  });

  it('refuses to restore a file that is not an intact Rhizome database, changing nothing', async () => {
    const before = await nodes();
    const files = fs.readdirSync(backupsDir()).sort();
    fs.writeFileSync(path.join(backupsDir(), 'app_20200103_000000.db'), 'not a database at all'.repeat(100));
    const result = await call('POST', '/backup/app_20200103_000000.db/restore');
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect((result.body as { message: string }).message).toContain('cannot be restored');
    expect(await nodes()).toEqual(before);
    expect(fs.readdirSync(backupsDir()).sort()).toEqual([...files, 'app_20200103_000000.db'].sort());
    expect((await call('DELETE', '/backup/app_20200103_000000.db')).status).toBe(204);
  });

  it('puts the database back as it was when a restored backup cannot be migrated', async () => {
    const before = await nodes();
    const broken = path.join(backupsDir(), 'app_20200104_000000.db');
    fs.copyFileSync(path.join(backupsDir(), backup.filename), broken);
    // The baseline recorded as not applied while its tables exist: migrating this file fails.
    const db = knex({ client: 'sqlite3', connection: { filename: broken }, useNullAsDefault: true });
    await db('knex_migrations').where({ name: '0001_baseline' }).delete();
    await db.destroy();

    const result = await call('POST', '/backup/app_20200104_000000.db/restore');
    expect(result.status).toBe(400);
    expect((result.body as { message: string }).message).toContain('the database is unchanged');
    expect(await nodes()).toEqual(before);
    expect(
      (
        await call('POST', '/nodes', {
          template_id: 'system_template_item',
          label: 'Still writable',
          properties: { definition: 'x' },
        })
      ).status,
    ).toBe(201);
    expect((await list()).data.filter((info) => info.kind === 'safety')).toHaveLength(3);
    fs.rmSync(broken);
  });

  it('deletes a backup', async () => {
    expect((await call('DELETE', `/backup/${backup.filename}`)).status).toBe(204);
    expect(fs.existsSync(path.join(backupsDir(), backup.filename))).toBe(false);
    expect((await list()).data.map((info) => info.filename)).not.toContain(backup.filename);
    expect((await call('DELETE', `/backup/${backup.filename}`)).status).toBe(404);
  });

  it('documents every backup endpoint in the OpenAPI document', async () => {
    const paths = ((await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> })
      .paths;
    expect(Object.keys(paths['/backup']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/backup/{filename}']).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/backup/{filename}/restore'])).toEqual(['post']);
  });
});
