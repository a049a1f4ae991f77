import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '@rhizome/contracts/settings';
import { PermanentTaskError, type QueueService } from '@rhizome/queue';
import type { TaskRegistrar } from '../module/index.ts';
import { BackupService } from '../backup/index.ts';
import type { ExportResult } from '@rhizome/contracts/api/exports';
import { DomainError } from '@rhizome/contracts/errors';
import { taskDatabaseFor } from '../databases/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import { publishBulkCreations, type GraphEventBus } from '../graph/index.ts';
import type { DataPaths } from '../paths.ts';
import type { EmbeddingService } from '../providers/index.ts';
import { reembedOperation } from '../search/index.ts';
import { configuredIdentity } from '../search/index.ts';
import { removeSourceFiles } from '../sources/index.ts';
import { VectorFiles, vectorKinds } from '../search/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import { exportDatabase, type CcxExportOptions } from './export-service.ts';
import { exportFile, exportFilename, isImportFile, pruneExports } from './files.ts';
import { applyCcxImport } from './import-apply.ts';
import { exportBySourcesOperation, exportGraphOperation, importCcxOperation } from './operation-names.ts';
import { readCcxInThread } from './read-in-thread.ts';
import { allSourceIds } from './read-model.ts';
import { workflowImporter } from './workflows.ts';

export interface CcxOperationDeps {
  databases: DatabaseManager;
  paths: DataPaths;
  settings(): Settings;
  embeddings: EmbeddingService;
  queue: QueueService;
  events: GraphEventBus;
  writers: VectorWriterSet;
  version: string;
  /** The triggers of `database` changed (an import brought or removed some): every process reloads them. */
  triggersChanged(database: string): Promise<void>;
}

/**
 * Packages larger than this come back through the download endpoint only: base64 inside a JSON task
 * result (how the export task answers) costs a third more and sits in the task store (decision 0014).
 */
export const inlineResultLimit = 32 * 1024 * 1024;

/**
 * `export_graph` and `export_by_sources` write the package to `<data_dir>/exports/<task_id>.ccx` and
 * return `{filename, content (base64), size_bytes, download_url, …}`; `import_ccx` reads a stored,
 * validated package, applies it in one transaction, then refreshes what lives outside SQLite: events
 * for the created nodes and edges, the vector indexes, and a background re-embedding of what came
 * without usable vectors. An import is never retried: any failure is final and changed nothing.
 */
/** A safety backup of `database` before a replacing import; its file name. */
async function safetyBackup(deps: CcxOperationDeps, database: string): Promise<string> {
  const backups = new BackupService({
    databases: deps.databases,
    queue: deps.queue,
    priority: () => deps.settings().priorities.interactive,
    database,
  });
  return (await backups.create('import')).filename;
}

export function defineCcxOperations(registry: TaskRegistrar, deps: CcxOperationDeps): void {
  const exportHandler =
    (bySources: boolean) =>
    async ({ task }: { task: { task_id: string; data: Record<string, unknown> } }): Promise<ExportResult> => {
      const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
      const options: CcxExportOptions = {
        ...(task.data as CcxExportOptions),
        ...(bySources
          ? { source_ids: (task.data.source_ids as string[] | undefined) ?? [] }
          : { source_ids: undefined }),
      };
      const target = exportFile(deps.paths, task.task_id);
      await pruneExports(deps.paths, deps.settings().timeouts.operations_result_ttl * 1000);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const written = await exportDatabase(deps, name, db, options, target);
      const content =
        written.size_bytes <= inlineResultLimit ? (await fs.promises.readFile(target)).toString('base64') : null;
      return {
        filename: exportFilename(new Date(), written.source_count),
        content,
        size_bytes: written.size_bytes,
        download_url: `/api/v1/exports/${task.task_id}/download`,
        package_type: written.package_type,
        counts: written.counts,
      };
    };
  registry.define(exportGraphOperation, { queue: 'operations' }, exportHandler(false));
  registry.define(exportBySourcesOperation, { queue: 'operations' }, exportHandler(true));

  registry.define(
    importCcxOperation,
    { queue: 'operations', retryOnTransient: false, retryOnCrash: false },
    async ({ task, logger }) => {
      const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
      const file = String(task.data.file);
      if (!isImportFile(deps.paths, file))
        throw new PermanentTaskError(
          'data.file must name a stored package under <data_dir>/imports',
          'ValidationError',
        );
      try {
        let content;
        try {
          content = await readCcxInThread(file);
        } catch (error) {
          if (error instanceof DomainError) throw new PermanentTaskError(error.message, 'ValidationError');
          throw error;
        }
        const { identity } = await configuredIdentity(db, deps.embeddings, deps.settings());
        const merge = task.data.merge === true;
        const replaced = merge ? [] : await allSourceIds(db);
        // What a replace clears stays restorable: no replace runs without its safety copy.
        const safety = merge ? null : await safetyBackup(deps, name);
        // Its one long transaction runs on the bulk-writer connection, so requests keep reading meanwhile.
        const writer = await deps.databases.bulkWriter(name);
        const outcome = await applyCcxImport(writer, content, {
          merge,
          embedder: identity,
          workflows: workflowImporter,
          dataDir: deps.paths.root,
        });
        outcome.stats.safety_backup = safety;
        logger.info(
          merge
            ? `import into '${name}': merged`
            : `import into '${name}': replaced its contents; the database as it was is kept as ${safety}`,
        );
        // The replaced sources' uploaded originals go once their rows are gone for good.
        for (const sourceId of replaced) await removeSourceFiles(deps.paths, name, sourceId);
        // The events of what was imported meet the triggers that exist after the import.
        await deps.triggersChanged(name);
        publishBulkCreations(deps.events, name, { nodes: outcome.nodesCreated, edges: outcome.edgesCreated });
        // Rows were replaced or added behind the indexes' backs (a replace reuses rowids): rebuild what is open here.
        for (const kind of vectorKinds) {
          const open = await deps.writers[kind].opened(name);
          if (merge) await open?.reconcile();
          else if (open || fs.existsSync(new VectorFiles(deps.paths.databaseDir(name), kind).meta))
            await (await deps.writers[kind].ensure(name, identity)).rebuild(identity);
        }
        if (outcome.stats.embeddings_pending > 0) {
          const reembed = await deps.queue.submit({
            queue: 'llm',
            operation: reembedOperation,
            priority: deps.settings().priorities.background,
            data: { database: name },
            metadata: { database: name },
          });
          outcome.stats.reembed_task_id = reembed.task_id;
          logger.info(
            `import into '${name}': ${outcome.stats.embeddings_pending} item(s) re-embedded in the background (task ${reembed.task_id})`,
          );
        }
        return outcome.stats;
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    },
  );
}
