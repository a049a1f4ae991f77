import { BadInput } from '@rhizome/contracts/errors';

/**
 * Names of operator backups: `app_YYYYMMDD_HHMMSS.db` (UTC), with `_<n>` when several are taken within
 * one second, and `pre-restore_YYYYMMDD_HHMMSS.db` for the safety copy a restore writes first. A name is
 * accepted only when it matches exactly, so nothing outside the backups directory can be addressed.
 */
export type BackupKind = 'backup' | 'safety';

const prefixes: Record<BackupKind, string> = { backup: 'app', safety: 'pre-restore' };
const namePattern = /^(app|pre-restore)_(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})(?:_(\d{1,4}))?\.db$/;

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
      `'${filename}' is not a backup file name (app_YYYYMMDD_HHMMSS.db or pre-restore_YYYYMMDD_HHMMSS.db)`,
      'filename',
    );
  }
  return parsed;
}

/** The candidate names for a backup taken at `at`, first the plain one, then with a counter. */
export function* backupNames(kind: BackupKind, at: Date): Generator<string> {
  const stamp = stampOf(at);
  yield `${prefixes[kind]}_${stamp}.db`;
  for (let counter = 2; counter < 10_000; counter += 1) yield `${prefixes[kind]}_${stamp}_${counter}.db`;
}

function stampOf(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
}
