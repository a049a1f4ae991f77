import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { backupNames, parseBackupName } from '../../src/backup/names.ts';
import { backupDue, runScheduledBackup } from '../../src/backup/schedule.ts';
import { createPlatform, type Platform } from '../../src/platform/create.ts';
import { BackupService } from '../../src/backup/service.ts';

const hour = 3_600_000;
const at = (iso: string) => new Date(iso);

describe('backup names', () => {
  it('names a backup by its UTC second and reads the time back', () => {
    const names = backupNames('backup', at('2026-03-04T05:06:07.890Z'));
    expect(names.next().value).toBe('app_20260304_050607.db');
    expect(names.next().value).toBe('app_20260304_050607_2.db');
    expect(parseBackupName('app_20260304_050607_2.db')).toEqual({
      kind: 'backup',
      takenAt: at('2026-03-04T05:06:07Z'),
    });
    expect(backupNames('restore', at('2026-03-04T05:06:07Z')).next().value).toBe('pre-restore_20260304_050607.db');
    expect(parseBackupName('pre-restore_20260304_050607.db')?.kind).toBe('safety');
    expect(backupNames('import', at('2026-03-04T05:06:07Z')).next().value).toBe('pre-import_20260304_050607.db');
    expect(parseBackupName('pre-import_20260304_050607.db')?.kind).toBe('safety');
  });

  it.each([
    'app_20260230_000000.db',
    'app_20260304_250000.db',
    'app_20260304_050607.db/',
    '../app_20260304_050607.db',
    'app_20260304_050607.sqlite',
    'pre-upgrade_20260304_050607.db',
    '',
  ])('does not take %j for a backup name', (name) => expect(parseBackupName(name)).toBeNull());
});

describe('backup schedule', () => {
  it.each([
    ['hourly', null, true],
    ['hourly', 59 * 60_000, false],
    ['hourly', hour, true],
    ['daily', 23 * hour, false],
    ['daily', 24 * hour, true],
    ['weekly', 6 * 24 * hour, false],
    ['weekly', 7 * 24 * hour, true],
  ] as const)('%s with the newest backup %s ms old: due %s', (schedule, age, due) => {
    const now = at('2026-06-01T12:00:00Z');
    expect(backupDue(schedule, age === null ? null : new Date(now.getTime() - age), now)).toBe(due);
  });

  describe('against a real database', () => {
    let platform: Platform;
    let backups: BackupService;
    let dataDir: string;
    const backupsDir = () => path.join(dataDir, 'backups', 'default');
    const settings = (changes: Partial<ReturnType<typeof defaultSettings>['backup']>) => ({
      ...defaultSettings().backup,
      ...changes,
    });

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-backup-'));
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
      backups = new BackupService({ databases: platform.databases, queue: platform.queue, priority: () => 50 });
    });
    afterAll(async () => {
      await platform.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('takes nothing while disabled', async () => {
      expect(await runScheduledBackup(backups, settings({ enabled: false }), at('2026-06-01T00:00:00Z'))).toEqual({
        created: null,
        pruned: [],
      });
      expect(fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()) : []).toEqual([]);
    });

    it('takes a backup when due, skips when not, and prunes to the newest `keep`, leaving safety copies', async () => {
      const keep = 3;
      const safety = await backups.create('restore', at('2026-05-01T00:00:00Z'));
      const taken: string[] = [];
      for (let day = 1; day <= 5; day++) {
        const now = at(`2026-06-0${day}T03:00:00Z`);
        const run = await runScheduledBackup(backups, settings({ schedule: 'daily', keep }), now);
        expect(run.created).toBe(`app_2026060${day}_030000.db`);
        taken.push(run.created!);
        expect(
          await runScheduledBackup(backups, settings({ schedule: 'daily', keep }), new Date(now.getTime() + 23 * hour)),
        ).toEqual({ created: null, pruned: [] });
      }
      const names = fs.readdirSync(backupsDir()).sort();
      expect(names).toEqual([...taken.slice(-keep), safety.filename].sort());
      expect(backups.list().map((info) => info.filename)).toEqual([...taken.slice(-keep).reverse(), safety.filename]);
    });

    it('waits for a quiet look while sources are being processed, unless a whole period overdue', async () => {
      const daily = settings({ schedule: 'daily', keep: 10 });
      const busy = async () => true;
      // The newest backup is of 2026-06-05 03:00 (the test before): due a day later, overdue two days later.
      expect(await runScheduledBackup(backups, daily, at('2026-06-06T04:00:00Z'), busy)).toEqual({
        created: null,
        pruned: [],
      });
      expect((await runScheduledBackup(backups, daily, at('2026-06-06T04:01:00Z'), async () => false)).created).toBe(
        'app_20260606_040100.db',
      );
      expect((await runScheduledBackup(backups, daily, at('2026-06-08T05:00:00Z'), busy)).created).toBe(
        'app_20260608_050000.db',
      );
    });
  });
});
