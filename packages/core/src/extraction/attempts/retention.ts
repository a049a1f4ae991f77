import { periodicJob } from '../../module/index.ts';
import type { ExtractionHost } from '../host.ts';
import { sweepAttempts } from './store.ts';

/** Retention is counted in days: a look every hour is precise enough. */
const sweepIntervalMs = 3_600_000;

async function sweep(platform: ExtractionHost): Promise<void> {
  try {
    const { db } = await platform.databases.current();
    const days = platform.settings.get().source_processing.attempt_retention_days;
    const removed = await sweepAttempts(db, days);
    if (removed > 0) platform.logger.info(`extraction attempts: ${removed} older than ${days} days removed`);
  } catch (error) {
    platform.logger.warning(`extraction attempt sweep: ${String(error)}`);
  }
}

/**
 * Extraction attempts of the active database (prompts and raw answers, the bulk of them) go once older
 * than `source_processing.attempt_retention_days`: at start-up, then every hour.
 */
export const attemptRetentionSweep = periodicJob<ExtractionHost>(
  'extraction-attempt-retention',
  sweepIntervalMs,
  sweep,
);
