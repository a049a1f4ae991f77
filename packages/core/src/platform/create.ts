import { countRows, CountsRegistry } from '../observability/index.ts';
import { diskHealth } from '../observability/index.ts';
import { HealthRegistry } from '../observability/index.ts';
import { PluginCaches } from '../observability/index.ts';
import { OperationRegistry, QueueService, type PubSub, type TaskStore } from '@rhizome/queue';
import { ProcessingControls } from '../pause/index.ts';
import { openTaskStore } from '../tasks/index.ts';
import { PauseFilter } from '../tasks/index.ts';
import { maxTries } from '../tasks/index.ts';
import { defineSystemOperations } from '../tasks/index.ts';
import { openSqlite, type Db } from '../storage/index.ts';
import { DatabaseManager, type MigrationPolicy } from '../databases/index.ts';
import { GraphEventBus } from '../graph/index.ts';
import { defineGraphOperations } from '../graph/index.ts';
import { defaultSeeds } from '../databases/index.ts';
import { createLogger, setLogLevel, type Logger } from '../logging.ts';
import { DataPaths, resolveConfigDir, resolveDataDir } from '../paths.ts';
import { SettingsStore } from '../settings/index.ts';
import type { Migration } from '../storage/index.ts';
import { Broadcast, connectPubSub } from '../pubsub/index.ts';
import { Providers } from '../providers/index.ts';
import { LlmMetrics } from '../providers/index.ts';
import { registerProviderHealth } from '../providers/index.ts';
import { vectorIndexHealth } from '../observability/index.ts';
import { createVectorWriters, type VectorWriters, type VectorWriterSet } from '../search/index.ts';
import { vectorReaders } from '../search/index.ts';
import { defineSearchOperations } from '../search/index.ts';
import { defineBackupOperations } from '../backup/index.ts';
import { defineCcxOperations } from '../ccx/index.ts';
import { BackupService } from '../backup/index.ts';
import { defineSourceOperations } from '../sources/index.ts';
import { createAutomation, type Automation } from '../automation/index.ts';
import { setSystemTriggersEnabled } from '../automation/index.ts';
import { startAfterGate } from '../extraction/index.ts';
import { defineExtractionOperations } from '../extraction/index.ts';
import { ExtractionService } from '../extraction/index.ts';
import { defineChatOperations } from '../chat/index.ts';
import { reconcileChats } from '../chat/index.ts';
import { ChatService } from '../chat/index.ts';

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
  /** Operator backups of the active database (`/backup`, the schedule). */
  backups: BackupService;
  /** Workflows, executions and the triggers that start them from graph events. */
  automation: Automation;
  /** Extraction jobs of one database (the service the API and the pipeline start them through). */
  extraction(database: string, db: Db): ExtractionService;
  /** Chats of one database (the API's side: CRUD, turns, cancel, decisions); the worker answers them. */
  chats(database: string, db: Db): ChatService;
  /** Operations with their lane and policies; the worker adds the handlers' code. */
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
  const settings = SettingsStore.open(paths.settingsFile, env, { dataDir: paths.root });
  const logger = createLogger(options.service, paths.logsDir, settings.get().logging.level);
  for (const warning of settings.loadWarnings) logger.warning(`settings: ${warning.field}: ${warning.message}`);
  settings.onChange((next) => setLogLevel(logger, next.logging.level));

  const pubsub = options.pubsub ?? (await connectPubSub(settings.get()));
  const origin = `${options.service}:${process.pid}`;
  // Hot reload: the one subscription point through which every process learns of a settings change.
  const settingsSync = new Broadcast<{ at: number }>(pubsub, 'rhizome:settings:changed', origin);
  await settingsSync.listen(() => {
    settings.reload();
    logger.info('settings reloaded after a change in another process');
  });
  const announceSettingsChanged = () => settingsSync.announce({ at: Date.now() });
  // A database deleted or restored from a backup elsewhere: drop the connection to the old file.
  const databaseSync = new Broadcast<{ name: string }>(pubsub, 'rhizome:database:replaced', origin);

  const databases = new DatabaseManager({
    paths,
    currentName: () => settings.get().current_database,
    setCurrentName: async (name) => {
      settings.patch({ current_database: name });
      await announceSettingsChanged();
    },
    onReplaced: (name) => databaseSync.announce({ name }),
    // A database made while auto-embedding is off gets its system triggers off too, as PATCH /settings would have set them.
    seeds: [...defaultSeeds, async (db) => {
      if (!settings.get().embedding.enable_auto_embedding) await setSystemTriggersEnabled(db, false);
    }],
    migrations: options.migrations,
    migrationPolicy: options.migrationPolicy,
  });
  await databaseSync.listen(({ name }) => databases.closeOne(name));
  // Migrations run before any request is served (spec Part A, Versioning 4).
  if (options.migrationPolicy === 'apply') await databases.current();

  const operations = new OperationRegistry();
  defineSystemOperations(operations);
  const tasks = await openTaskStore(settings, paths.queueDb);
  const queue = new QueueService(tasks, operations, () => maxTries(settings.get()));
  const systemDb = openSqlite(paths.systemDb);
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
  defineGraphOperations(operations, { databases, events: graphEvents, embeddings: providers.embeddings });
  const vectorWriters = createVectorWriters(databases, providers.embeddings, (kind, error) => logger.error(`${kind} vector index: ${String(error)}`));
  const chunkVectors = vectorWriters.chunks;
  const extraction = (database: string, db: Db) => new ExtractionService({ db, database, queue, tasks, settings: () => settings.get(), readiness: providers.readiness });
  defineExtractionOperations(operations, {
    databases, settings: () => settings.get(), llm: providers.llm, embeddings: providers.embeddings, queue, events: graphEvents, nodeVectors: (name) => vectorWriters.nodes.sink(name), extraction,
  });
  defineSearchOperations(operations, { databases, settings: () => settings.get(), embeddings: providers.embeddings, writers: vectorWriters });
  defineChatOperations(operations, { databases, settings: () => settings.get(), llm: providers.llm, embeddings: providers.embeddings, pubsub });
  const chats = (database: string, db: Db) =>
    new ChatService({ db, database, settings: () => settings.get(), queue, tasks, pubsub, readiness: providers.readiness, llm: providers.llm });
  // A chat whose answering task ended while no process was up to see it must not stay `processing`.
  if (options.migrationPolicy === 'apply') {
    const { db } = await databases.current();
    const settled = await reconcileChats(db, tasks, pubsub).catch((error: unknown) => {
      logger.warning(`chat reconcile: ${String(error)}`);
      return 0;
    });
    if (settled) logger.info(`chats: ${settled} left processing by an ended task settled`);
  }
  defineBackupOperations(operations, { databases, settings: () => settings.get(), embeddings: providers.embeddings, writers: vectorWriters });
  defineCcxOperations(operations, {
    databases, paths, settings: () => settings.get(), embeddings: providers.embeddings, queue, events: graphEvents, writers: vectorWriters, version: rhizomeVersion,
    triggersChanged: (database) => automation.triggersChanged(database),
  });
  defineSourceOperations(operations, {
    databases, settings: () => settings.get(), embeddings: providers.embeddings, llm: providers.llm, chunkVectors: async (name) => chunkVectors.sink(name),
    afterIndexed: (database, db, sourceId) => startAfterGate(extraction(database, db), db, sourceId),
  });

  const automation = await createAutomation({
    databases, settings: () => settings.get(), queue, operations, events: graphEvents, providers, vectorWriters, pubsub, origin, logger,
  });

  const health = new HealthRegistry();
  health.register('database', async () => {
    const { name, db } = await databases.current();
    await db.raw('SELECT 1');
    return { status: 'ok', details: { database: name } };
  });
  health.register('disk', () => diskHealth(paths.root));
  health.register('vector_index', () => vectorIndexHealth({ databases, embeddings: providers.embeddings, settings: () => settings.get() }));
  health.register('queue', async () => {
    await Promise.all([tasks.ping(), pubsub.publish('rhizome:health', 'ping')]);
    return { status: 'ok', details: { backend: tasks.kind } };
  });

  registerProviderHealth(health, providers);

  const counts = new CountsRegistry();
  counts.register('templates', (db) => countRows(db, 'graph_templates'));
  counts.register('knowledge_nodes', (db) => countRows(db, 'graph_nodes'));
  counts.register('links', (db) => countRows(db, 'graph_edges'));
  counts.register('sources', (db) => countRows(db, 'sources'));
  counts.register('workflows', (db) => countRows(db, 'workflows'));

  return {
    paths,
    configDir: resolveConfigDir(env),
    settings,
    announceSettingsChanged,
    logger,
    pubsub,
    databases,
    health,
    counts,
    pluginCaches: new PluginCaches(),
    graphEvents,
    providers,
    vectorWriters,
    chunkVectors,
    automation,
    backups: new BackupService({ databases, queue, priority: () => settings.get().priorities.interactive }),
    extraction,
    chats,
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
}
