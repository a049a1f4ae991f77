import type { Settings } from '@rhizome/contracts/settings';
import type { BackupService } from './service.ts';

type Schedule = Settings['backup']['schedule'];

const periodMs: Record<Schedule, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 7 * 86_400_000 };
/** How often the schedule is looked at: a backup is at most this late. */
const checkEveryMs = 60_000;

/** Whether a scheduled backup is due: none taken yet, or the newest is at least one period old. */
export function backupDue(schedule: Schedule, latest: Date | null, now: Date): boolean {
  return latest === null || now.getTime() - latest.getTime() >= periodMs[schedule];
}

export interface ScheduledRun {
  created: string | null;
  pruned: string[];
}

/**
 * One look at the schedule (`backup.enabled`, `schedule`, `keep`): takes a backup of the active database
 * when one is due and prunes the regular backups down to the newest `keep`. Due-ness is judged from the
 * backups on disk, so a restart neither skips nor repeats one. While sources are being processed
 * (`busy`) a due backup waits for a quiet look — copying the database mid-ingestion slows it and holds
 * memory, and catches sources half-indexed — unless it is overdue by a whole period more.
 */
export async function runScheduledBackup(
  service: BackupService,
  settings: Settings['backup'],
  now = new Date(),
  busy: () => Promise<boolean> = async () => false,
): Promise<ScheduledRun> {
  const latest = service.latestBackupAt();
  if (!settings.enabled || !backupDue(settings.schedule, latest, now)) return { created: null, pruned: [] };
  const overdue = latest !== null && now.getTime() - latest.getTime() >= 2 * periodMs[settings.schedule];
  if (!overdue && (await busy())) return { created: null, pruned: [] };
  const created = await service.create('backup', now);
  return { created: created.filename, pruned: await service.prune(settings.keep) };
}

export interface BackupScheduleDeps {
  service: BackupService;
  settings(): Settings['backup'];
  log: { info(message: string): unknown; warning(message: string): unknown };
  /** Whether sources of the active database are being indexed or extracted now. */
  busy(): Promise<boolean>;
}

/** Looks at the schedule every minute until stopped (run by the one API process of a deployment). */
export function startBackupSchedule(deps: BackupScheduleDeps): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    // A backup still being written when the next look comes is not due twice.
    running ??= runScheduledBackup(deps.service, deps.settings(), new Date(), deps.busy)
      .then(({ created, pruned }) => {
        if (created)
          deps.log.info(`scheduled backup ${created} written${pruned.length ? `; pruned ${pruned.join(', ')}` : ''}`);
      })
      .catch((error: unknown) => void deps.log.warning(`scheduled backup: ${String(error)}`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, checkEveryMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
