import type { Platform } from '@rhizome/core/platform';
import { HealthMonitor } from '@rhizome/core/pause';
import { startBackupSchedule } from '@rhizome/core/backup';
import { finishIdleExtractions } from '@rhizome/core/extraction';
import { persistInstanceHealth } from '@rhizome/core/providers';
import { graphAdjacency, readGraphVersion } from '@rhizome/core/search';
import { passageGraph } from '@rhizome/core/search';
import { sourceServiceFor } from './routes/sources.ts';

const sourceRecoveryIntervalMs = 60_000;
/** A source whose indexing shows no progress for this long is stalled (prior-art §8). */
const stalledAfterMs = 600_000;
const maxRecoveryAttempts = 10;

/** A source showing extraction in progress with no activity for this long is checked for an extraction with no work left. */
const idleExtractionAfterMs = 60_000;

/**
 * Re-queues the unfinished indexing of stalled sources of the active database, at most ten times each,
 * and finishes the sources whose extraction has no work left.
 */
async function recoverStalledSources(platform: Platform): Promise<void> {
  try {
    const service = await sourceServiceFor(platform);
    for (const id of await service.stalled(stalledAfterMs)) {
      if (await service.recover(id, { maxAttempts: maxRecoveryAttempts })) platform.logger.info(`source ${id}: stalled indexing queued again`);
    }
    const { name, db } = await platform.databases.current();
    const context = { db, database: name, queue: platform.queue, tasks: platform.tasks, priority: platform.settings.get().priorities.background };
    for (const { sourceId, outcome } of await finishIdleExtractions(context, idleExtractionAfterMs)) {
      platform.logger.info(`source ${sourceId}: extraction with no work left finished (${outcome})`);
    }
  } catch (error) {
    platform.logger.warning(`source recovery scan: ${String(error)}`);
  }
}

/** Whether a source of the active database is being indexed, described or extracted right now. */
async function sourcesInProgress(platform: Platform): Promise<boolean> {
  const { db } = await platform.databases.current();
  return (await db('sources').whereIn('status', ['indexing', 'vision_pending', 'extracting', 'committing']).first('id')) !== undefined;
}

/**
 * Builds the active database's graph-search adjacency and passage graph now, so the first graph or hybrid
 * search does not pay for them (seconds at a million edges).
 */
async function warmGraphSearch(platform: Platform): Promise<void> {
  try {
    const { db } = await platform.databases.current();
    const version = await readGraphVersion(db);
    await passageGraph(db, await graphAdjacency(db, version), version);
  } catch (error) {
    platform.logger.warning(`graph search warm-up: ${String(error)}`);
  }
}

/**
 * Periodic work owned by the API process, of which a deployment runs exactly one (workers may be many):
 * the health monitor that records health changes and pauses processing while a subsystem is down, and
 * the `healthy` flags of local model servers in the settings, the scan that re-queues stalled sources,
 * and the scheduled backups.
 */
export function startApiBackgroundJobs(platform: Platform): { stop(): Promise<void> } {
  const monitor = new HealthMonitor({
    health: platform.health,
    processing: platform.processing,
    announce: () => platform.announceProcessingChanged(),
    logger: platform.logger,
  });
  monitor.start();
  const stopPersisting = persistInstanceHealth(platform);
  // Once at start-up (work left stuck by the last run), then periodically; stop waits for a scan in flight.
  let scan = recoverStalledSources(platform);
  const recovery = setInterval(() => (scan = recoverStalledSources(platform)), sourceRecoveryIntervalMs);
  recovery.unref();
  // Stop waits for it too: a warm-up query issued after the database closed would hold the process for a minute.
  const warmUp = warmGraphSearch(platform);
  const backups = startBackupSchedule({
    service: platform.backups, settings: () => platform.settings.get().backup, log: platform.logger, busy: () => sourcesInProgress(platform),
  });
  return {
    stop: async () => {
      await backups.stop();
      clearInterval(recovery);
      await Promise.all([scan, warmUp]);
      stopPersisting();
      await monitor.stop();
    },
  };
}
