import { BadInput } from '@rhizome/contracts/errors';

/**
 * Names of operator backups: `app_YYYYMMDD_HHMMSS.db` (UTC; `.sql` for a PostgreSQL schema's dump),
 * with `_<n>` when several are taken within one second, and `pre-restore_…` / `pre-import_…` for the
 * safety copy a restore or a replacing import writes first. A name is accepted only when it matches exactly, so nothing outside the backups
 * directory can be addressed.
 */
export type BackupKind = 'backup' | 'safety';
/** Why a backup is taken: on request or by the schedule, or as the safety copy before a restore or a replacing import. */
export type BackupOccasion = 'backup' | 'restore' | 'import';

const prefixes: Record<BackupOccasion, string> = { backup: 'app', restore: 'pre-restore', import: 'pre-import' };
const namePattern =
  /^(app|pre-restore|pre-import)_(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})(?:_(\d{1,4}))?\.(?:db|sql)$/;

export interface ParsedBackupName {
  kind: BackupKind;
  /** When the backup was taken, from the name. */
  takenAt: Date;
}

export function parseBackupName(filename: string): ParsedBackupName | null {
  const match = namePattern.exec(filename);
  if (!match) return null;
  const [, prefix, year, month, day, hour, minute, second] = match;
  const takenAt = new Date(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
  // 20261340_256199 parses to some other instant: only a stamp that reads back the same is a date.
  if (Number.isNaN(takenAt.getTime()) || stampOf(takenAt) !== `${year}${month}${day}_${hour}${minute}${second}`)
    return null;
  return { kind: prefix === 'app' ? 'backup' : 'safety', takenAt };
}

/** The parsed name, or 400 for anything that is not a backup file name (paths, traversal, other files). */
export function requireBackupName(filename: string): ParsedBackupName {
  const parsed = parseBackupName(filename);
  if (!parsed) {
    throw BadInput.field(
      `'${filename}' is not a backup file name (app_, pre-restore_ or pre-import_YYYYMMDD_HHMMSS.db or .sql)`,
      'filename',
    );
  }
  return parsed;
}

/** The candidate names for a backup taken at `at`, first the plain one, then with a counter. */
export function* backupNames(occasion: BackupOccasion, at: Date, extension: '.db' | '.sql' = '.db'): Generator<string> {
  const stamp = stampOf(at);
  yield `${prefixes[occasion]}_${stamp}${extension}`;
  for (let counter = 2; counter < 10_000; counter += 1) yield `${prefixes[occasion]}_${stamp}_${counter}${extension}`;
}

function stampOf(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
}
