import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupModule } from '../../src/backup/index.ts';
import { createPlatform, type Platform } from '../../src/platform/index.ts';

describe('the backup module', () => {
  let platform: Platform;
  let dataDir: string;
  const serviceFor = async (name: string) =>
    backupModule.service!(platform, { name, db: await platform.databases.connection(name) });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-backup-module-'));
    platform = await createPlatform({
      service: 'test',
      migrationPolicy: 'apply',
      env: {
        ...process.env,
        RHIZOME_DATA_DIR: dataDir,
        RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
        RHIZOME_QUEUE_URL: '',
      },
    });
  });
  afterAll(async () => {
    await platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives two requests backing up one database in the same second two files, one after the other', async () => {
    const at = new Date('2026-07-01T10:00:00Z');
    const [first, second] = await Promise.all([
      (await serviceFor('default')).create('backup', at),
      (await serviceFor('default')).create('backup', at),
    ]);
    expect([first.filename, second.filename].sort()).toEqual(['app_20260701_100000.db', 'app_20260701_100000_2.db']);
    expect(fs.readdirSync(path.join(dataDir, 'backups', 'default')).sort()).toEqual([
      'app_20260701_100000.db',
      'app_20260701_100000_2.db',
    ]);
  });

  it("backs up the request's database, not whichever became active since", async () => {
    await platform.databases.create('other');
    const service = await serviceFor('other');
    expect(platform.databases.currentName()).toBe('default');
    const taken = await service.create('backup', new Date('2026-07-02T10:00:00Z'));
    expect(taken).toMatchObject({ database: 'other', filename: 'app_20260702_100000.db' });
    expect(service.list().map((info) => info.filename)).toEqual(['app_20260702_100000.db']);
    expect(fs.existsSync(path.join(dataDir, 'backups', 'other', taken.filename))).toBe(true);
  });
});
