import { OperationRegistry, QueueService, type PubSub, type TaskStore } from '@rhizome/queue';
import { startAutomation, setSystemTriggersEnabled, type Automation } from '../automation/index.ts';
import { reconcileChats } from '../chat/index.ts';
import { DatabaseManager, PostgresDatabaseStore, type MigrationPolicy } from '../databases/index.ts';
import { extractionModule, mergedCitations, type ExtractionService } from '../extraction/index.ts';
import { GraphEventBus, type MergedCitations } from '../graph/index.ts';
import { createLogger, setLogLevel, type Logger } from '../logging.ts';
import { CountsRegistry, HealthRegistry, PluginCaches } from '../observability/index.ts';
import { ProcessingControls } from '../pause/index.ts';
import { DataPaths, resolveConfigDir, resolveDataDir } from '../paths.ts';
import { LlmMetrics, Providers } from '../providers/index.ts';
import { Broadcast, connectPubSub, queueUrl } from '../pubsub/index.ts';
import { createVectorWriters, vectorReaders, type VectorWriters, type VectorWriterSet } from '../search/index.ts';
import { ServerSettings, SettingsStore } from '../settings/index.ts';
import {
  openSqlite,
  postgresPreviewWarning,
  PostgresServer,
  postgresServerOptions,
  systemSchema,
  type Db,
  type Migration,
} from '../storage/index.ts';
import { llmConcurrency, maxTries, openTaskStore, PauseFilter } from '../tasks/index.ts';
import type { TaskRegistrar } from '../module/index.ts';
import { featureModules } from './modules.ts';

export const rhizomeVersion = '0.1.0';

/** Everything a service process shares: data paths, settings, logging, pub/sub, databases, registries. */
export interface Platform {
  paths: DataPaths;
  configDir: string;
  settings: SettingsStore;
  /** Tells every other process to re-read the settings file (after a patch or reset here). */
  announceSettingsChanged(): Promise<void>;
  logger: Logger;
  pubsub: PubSub;
  /** The PostgreSQL server RHIZOME_DATABASE_URL names, holding every database and `rhizome_system`; null on SQLite. */
  server: PostgresServer | null;
  databases: DatabaseManager;
  health: HealthRegistry;
  counts: CountsRegistry;
  pluginCaches: PluginCaches;
  /** node.create / edge.create events of graph writes made in this process. */
  graphEvents: GraphEventBus;
  /** Language-model and embedding providers, their readiness gate and metrics. */
  providers: Providers;
  /** The vector indexes of every kind this process writes (the worker's; opened on first write). */
  vectorWriters: VectorWriterSet;
  /** The chunk vector indexes this process writes (`vectorWriters.chunks`). */
  chunkVectors: VectorWriters;
  /** Workflows, executions and the triggers that start them from graph events. */
  automation: Automation;
  /**
   * Extraction jobs of one database: how sources, built before extraction and not importing it, start and
   * stop a run (the extraction module's service).
   */
  extraction(database: string, db: Db): ExtractionService;
  /** How a node merge of the graph carries extraction's citations along. */
  mergedCitations: MergedCitations;
  /** Operations with their lane and policies; a worker adds the handlers' code (`registerTaskHandlers`). */
  operations: OperationRegistry;
  tasks: TaskStore;
  queue: QueueService;
  processing: ProcessingControls;
  pauseFilter: PauseFilter;
  /** Tells every process that pause flags changed, so workers re-read them before their next claim. */
  announceProcessingChanged(): Promise<void>;
  /** Called in this process whenever pause flags changed here or elsewhere; returns an unsubscribe. */
  onProcessingChanged(listener: () => void): () => void;
  version: string;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** Log file name: cortex, neuron, or the embedded default's. */
  service: string;
  env?: NodeJS.ProcessEnv;
  migrations?: Migration[];
  migrationPolicy: MigrationPolicy;
  /** Replaces the pub/sub the settings select (commands that must not need Redis pass an in-process one). */
  pubsub?: PubSub;
}

export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const env = options.env ?? process.env;
  const paths = new DataPaths(resolveDataDir(env));
  // RHIZOME_DATABASE_URL: every database a schema of that server; settings, the queue and the system tables in `rhizome_system`.
  const databaseUrl = env.RHIZOME_DATABASE_URL;
  const postgres = databaseUrl ? new PostgresServer(databaseUrl, postgresServerOptions(env)) : null;
  const systemDb = postgres ? await postgres.system() : openSqlite(paths.systemDb);
  const settings = postgres
    ? SettingsStore.kept(await ServerSettings.open(systemDb, paths.settingsFile), env, { dataDir: paths.root })
    : SettingsStore.open(paths.settingsFile, env, { dataDir: paths.root });
  const logger = createLogger(options.service, paths.logsDir, settings.get().logging.level);
  for (const warning of settings.loadWarnings) logger.warning(`settings: ${warning.field}: ${warning.message}`);
  settings.onChange((next) => setLogLevel(logger, next.logging.level));
  if (postgres) logger.warning(postgresPreviewWarning);

  const pubsub = options.pubsub ?? (await sharedPubSub(settings, databaseUrl));
  const origin = `${options.service}:${process.pid}`;
  // Hot reload: the one subscription point through which every process learns of a settings change.
  const settingsSync = new Broadcast<{ at: number }>(pubsub, 'rhizome:settings:changed', origin);
  await settingsSync.listen(async () => {
    await settings.refresh();
    logger.info('settings reloaded after a change in another process');
  });
  const announceSettingsChanged = async () => {
    await settings.saved();
    await settingsSync.announce({ at: Date.now() });
  };
  // A database deleted or restored from a backup elsewhere: drop the connection to the old file.
  const databaseSync = new Broadcast<{ name: string }>(pubsub, 'rhizome:database:replaced', origin);

  const databases = new DatabaseManager({
    paths,
    store: postgres ? new PostgresDatabaseStore(postgres, paths) : undefined,
    currentName: () => settings.get().current_database,
    setCurrentName: async (name) => {
      settings.patch({ current_database: name });
      await announceSettingsChanged();
    },
    onReplaced: (name) => databaseSync.announce({ name }),
    seeds: [
      ...featureModules.flatMap((module) => module.seeds ?? []),
      // A database made while auto-embedding is off gets its system triggers off too, as PATCH /settings would have set them.
      async (db) => {
        if (!settings.get().embedding.enable_auto_embedding) await setSystemTriggersEnabled(db, false);
      },
    ],
    migrations: options.migrations,
    migrationPolicy: options.migrationPolicy,
  });
  await databaseSync.listen(async ({ name }) => {
    await databases.closeOne(name);
    await databases.survey();
  });
  // The catalogue of a server is read here first (the files of the embedded default are read as asked).
  if (postgres) await databases.survey();
  // Migrations run before any request is served (docs/api-conventions.md).
  if (options.migrationPolicy === 'apply') await databases.current();

  const operations = new OperationRegistry();
  const tasks = await openQueue(settings, paths, databaseUrl, env);
  const queue = new QueueService(tasks, operations, () => maxTries(settings.get()));
  const processing = await ProcessingControls.open(systemDb);
  const pauseFilter = new PauseFilter(processing, operations);
  const processingSync = new Broadcast<{ at: number }>(pubsub, 'rhizome:processing:changed', origin);
  const processingListeners = new Set<() => void>();
  const processingChanged = () => {
    pauseFilter.invalidate();
    for (const listener of processingListeners) listener();
  };
  await processingSync.listen(processingChanged);
  const announceProcessingChanged = async () => {
    processingChanged();
    await processingSync.announce({ at: Date.now() });
  };

  const providers = new Providers({
    settings: () => settings.get(),
    onSettingsChange: (listener) => settings.onChange(listener),
    metrics: await LlmMetrics.open(systemDb),
    logger,
    modelsDir: paths.modelsDir(env),
  });

  const graphEvents = new GraphEventBus();
  const vectorWriters = createVectorWriters(databases, providers.embeddings, (kind, error) =>
    logger.error(`${kind} vector index: ${String(error)}`),
  );
  // A chat whose answering task ended while no process was up to see it must not stay `processing`.
  if (options.migrationPolicy === 'apply') {
    const { db } = await databases.current();
    const settled = await reconcileChats(db, tasks, pubsub).catch((error: unknown) => {
      logger.warning(`chat reconcile: ${String(error)}`);
      return 0;
    });
    if (settled) logger.info(`chats: ${settled} left processing by an ended task settled`);
  }
  const automation = await startAutomation({
    databases,
    settings: () => settings.get(),
    queue,
    events: graphEvents,
    pubsub,
    origin,
    logger,
  });

  const platform: Platform = {
    paths,
    configDir: resolveConfigDir(env),
    settings,
    announceSettingsChanged,
    logger,
    pubsub,
    server: postgres,
    databases,
    health: new HealthRegistry(),
    counts: new CountsRegistry(),
    pluginCaches: new PluginCaches(),
    graphEvents,
    providers,
    vectorWriters,
    chunkVectors: vectorWriters.chunks,
    automation,
    extraction: (name, db) => extractionModule.service!(platform, { name, db }),
    mergedCitations,
    operations,
    tasks,
    queue,
    processing,
    pauseFilter,
    announceProcessingChanged,
    onProcessingChanged: (listener) => {
      processingListeners.add(listener);
      return () => processingListeners.delete(listener);
    },
    version: rhizomeVersion,
    async close() {
      await automation.close();
      await settingsSync.stop();
      await databaseSync.stop();
      await processingSync.stop();
      await tasks.close();
      await Promise.all(Object.values(vectorWriters).map((writers) => writers.close()));
      await vectorReaders.close(paths.root);
      await systemDb.destroy();
      await databases.close();
      await pubsub.close();
    },
  };
  // Lanes and policies only: enqueueing needs them; a worker registers the handlers (registerTaskHandlers).
  const lanesOnly: TaskRegistrar = { define: (name, taskOptions) => operations.define(name, taskOptions) };
  for (const module of featureModules) {
    module.defineTasks?.(lanesOnly, platform);
    for (const [name, probe] of Object.entries(module.health?.(platform) ?? {})) platform.health.register(name, probe);
    for (const [name, count] of Object.entries(module.counts ?? {})) platform.counts.register(name, count);
  }
  return platform;
}

/** Redis when the queue settings name one; else the PostgreSQL server when the URL is set; else in this process. */
async function sharedPubSub(settings: SettingsStore, databaseUrl: string | undefined): Promise<PubSub> {
  if (queueUrl(settings.get()) || !databaseUrl) return connectPubSub(settings.get());
  const { PostgresPubSub } = await import('@rhizome/queue/postgres-pubsub');
  return PostgresPubSub.connect(databaseUrl);
}

/** As the pub/sub: Redis when configured, else the server's `rhizome_system`, else `<data_dir>/queue.db`. */
async function openQueue(
  settings: SettingsStore,
  paths: DataPaths,
  databaseUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<TaskStore> {
  if (queueUrl(settings.get()) || !databaseUrl) return openTaskStore(settings, paths.queueDb);
  const { PostgresTaskStore } = await import('@rhizome/queue/postgres/store');
  return PostgresTaskStore.connect(databaseUrl, {
    schema: systemSchema,
    globalLimit: (queue) => (queue === 'llm' ? llmConcurrency(settings.get()) : undefined),
    statementTimeoutMs: postgresServerOptions(env).statementTimeoutMs,
  });
}
