import type { BackgroundJob, DatabaseHandle, FeatureModule, Platform } from '../platform/index.ts';
import { countRows } from '../storage/index.ts';
import { recoverSources } from './recovery.ts';
import { SourceService } from './service.ts';
import { defineSourceOperations } from './tasks.ts';

const recoveryIntervalMs = 60_000;

/**
 * Extraction is built on sources, so sources reach it through the platform's per-database extraction
 * service (a type, not an import): to start a run once a source is indexed, stop it, take a deleted
 * source's contribution back and finish idle runs.
 */
const extractionOf = (platform: Platform, { name, db }: DatabaseHandle) => platform.extraction(name, db);

function sourceService(platform: Platform, database: DatabaseHandle): SourceService {
  return new SourceService({
    db: database.db,
    database: database.name,
    paths: platform.paths,
    processing: platform.processing,
    metrics: platform.providers.metrics,
    queue: platform.queue,
    tasks: platform.tasks,
    logger: platform.logger,
    extraction: extractionOf(platform, database),
  });
}

async function recoveryScan(platform: Platform): Promise<void> {
  try {
    const database = await platform.databases.current();
    await recoverSources(sourceService(platform, database), extractionOf(platform, database), platform.logger);
  } catch (error) {
    platform.logger.warning(`source recovery scan: ${String(error)}`);
  }
}

/** Stalled indexing re-queued and idle extractions finished in the active database: once at start-up (work the last run left stuck), then every minute. */
const sourceRecovery: BackgroundJob = {
  name: 'source-recovery',
  start(platform) {
    let scan = recoveryScan(platform);
    const timer = setInterval(() => (scan = recoveryScan(platform)), recoveryIntervalMs);
    timer.unref();
    return {
      // Waits for a scan in flight: a query issued after the database closed would hold the process.
      stop: async () => {
        clearInterval(timer);
        await scan;
      },
    };
  },
};

/** Sources: uploads and URL imports, indexing (chunks, their embeddings, the domain gate), tags. */
export const sourcesModule: FeatureModule<SourceService> = {
  name: 'sources',
  tables: [
    'sources',
    'document_chunks',
    'chunk_groups',
    'chunk_vectors',
    'source_tags',
    'source_tag_links',
    'custom_domains',
  ],
  defineTasks(registry, platform) {
    defineSourceOperations(registry, {
      databases: platform.databases,
      settings: () => platform.settings.get(),
      embeddings: platform.providers.embeddings,
      llm: platform.providers.llm,
      chunkVectors: async (name) => platform.chunkVectors.sink(name),
      afterIndexed: (name, db, sourceId) => extractionOf(platform, { name, db }).startAfterGate(sourceId),
    });
  },
  service: sourceService,
  counts: { sources: (db) => countRows(db, 'sources') },
  background: [sourceRecovery],
};
