import type { QueueService, TaskStore } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { Logger } from '../logging.ts';
import type { BackgroundJob, DatabaseHandle, FeatureModule } from '../module/index.ts';
import type { ProcessingControls } from '../pause/index.ts';
import type { DataPaths } from '../paths.ts';
import type { Providers } from '../providers/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import { countRows, type Db } from '../storage/index.ts';
import { SourceBulkJobs } from './bulk/jobs.ts';
import type { ChunkVectorSink } from './indexing.ts';
import { recoverSources, type IdleExtractions } from './recovery.ts';
import { SourceService, type ChunkVectorIndex, type SourceExtraction } from './service.ts';
import { defineSourceOperations } from './tasks.ts';
import { transcriptionRetryJob } from './transcription-retry.ts';

const recoveryIntervalMs = 60_000;

/** What sources ask of extraction's per-database service: start a run once a source is indexed, stop it, take a deleted source's contribution back, finish idle runs. */
export type SourcesExtraction = SourceExtraction & IdleExtractions;

/** What the sources module needs of the process it runs in. */
export interface SourcesHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get' | 'onChange'>;
  paths: DataPaths;
  processing: ProcessingControls;
  providers: Pick<Providers, 'metrics' | 'embeddings' | 'llm'>;
  queue: QueueService;
  tasks: TaskStore;
  logger: Logger;
  /** The chunk vector indexes this process writes (the search feature's). */
  chunkVectors: ChunkVectorIndex & { sink(database: string): ChunkVectorSink };
  /**
   * Extraction is built on sources, so sources reach it through the host's per-database extraction
   * service (a type, not an import).
   */
  extraction: (database: string, db: Db) => SourcesExtraction;
}

/** What the sources module gives a request or task: the source service, with the bulk jobs over it. */
export type SourcesFace = SourceService & { readonly bulk: SourceBulkJobs };

function sourceService(host: SourcesHost, database: DatabaseHandle): SourceService {
  return new SourceService({
    db: database.db,
    database: database.name,
    paths: host.paths,
    processing: host.processing,
    metrics: host.providers.metrics,
    queue: host.queue,
    tasks: host.tasks,
    logger: host.logger,
    extraction: host.extraction(database.name, database.db),
    chunkVectors: host.chunkVectors,
    urlFetchTimeoutSeconds: () => host.settings.get().timeouts.url_fetch,
  });
}

function sourcesFace(host: SourcesHost, database: DatabaseHandle): SourcesFace {
  const service = sourceService(host, database);
  const bulk = new SourceBulkJobs({
    ...database,
    database: database.name,
    service,
    queue: host.queue,
    tasks: host.tasks,
  });
  return Object.assign(service, { bulk });
}

async function recoveryScan(host: SourcesHost): Promise<void> {
  try {
    const database = await host.databases.current();
    await recoverSources(sourceService(host, database), host.extraction(database.name, database.db), host.logger);
  } catch (error) {
    host.logger.warning(`source recovery scan: ${String(error)}`);
  }
}

/** Stalled indexing re-queued and idle extractions finished in the active database: once at start-up (work the last run left stuck), then every minute. */
const sourceRecovery: BackgroundJob<SourcesHost> = {
  name: 'source-recovery',
  start(host) {
    let scan = recoveryScan(host);
    const timer = setInterval(() => (scan = recoveryScan(host)), recoveryIntervalMs);
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
export const sourcesModule: FeatureModule<SourcesFace, SourcesHost> = {
  name: 'sources',
  tables: [
    'sources',
    'document_chunks',
    'chunk_groups',
    'chunk_vectors',
    'source_tags',
    'source_tag_links',
    'custom_domains',
    'source_names',
    'document_links',
    'source_bulk_jobs',
  ],
  defineTasks(registry, host) {
    defineSourceOperations(registry, {
      databases: host.databases,
      settings: () => host.settings.get(),
      embeddings: host.providers.embeddings,
      llm: host.providers.llm,
      chunkVectors: async (name) => host.chunkVectors.sink(name),
      afterIndexed: (name, db, sourceId) => host.extraction(name, db).startAfterGate(sourceId),
      bulkJobs: (database) => sourcesFace(host, database).bulk,
    });
  },
  service: sourcesFace,
  counts: {
    sources: (db) => countRows(db, 'sources'),
    awaiting_confirmation: (db) => countRows(db, 'sources', { status: 'awaiting_confirmation' }),
  },
  background: [sourceRecovery, transcriptionRetryJob(sourceService)],
};
