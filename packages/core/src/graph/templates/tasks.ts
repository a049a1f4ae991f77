import { batchResult } from '@rhizome/contracts/api/batch';
import { PermanentTaskError } from '@rhizome/queue';
import type { DefineOperations, GraphDeps } from '../deps.ts';
import { taskDatabase } from '../task-database.ts';
import { regenerateTemplateEmbeddings, type TemplateEmbedder } from './embeddings.ts';
import { TemplateService, type TemplateBatchStep } from './service.ts';

export const templateBatchOperation = 'graph.templates_batch';
export const templateEmbeddingsOperation = 'graph.templates_embeddings';

/**
 * The template tasks of the operations lane: `graph.templates_batch` (data `{database, operations}`,
 * result one outcome per operation in order) and `graph.templates_embeddings` (data `{database}`).
 */
export const defineTemplateOperations: DefineOperations = (registry, deps) => {
  // A batch is not idempotent (creates get fresh ids): a task that died half-way must not run again.
  registry.define(
    templateBatchOperation,
    { queue: 'operations', retryOnTransient: false, retryOnCrash: false },
    async ({ task, checkCancelled }) => {
      const operations = task.data.operations;
      if (!Array.isArray(operations)) throw new PermanentTaskError('data.operations must be a list', 'ValidationError');
      const db = await taskDatabase(deps, task.data.database);
      return batchResult(await new TemplateService(db).runBatch(operations as TemplateBatchStep[], checkCancelled));
    },
  );
  registry.define(templateEmbeddingsOperation, { queue: 'operations' }, async ({ task, checkCancelled }) => {
    const db = await taskDatabase(deps, task.data.database);
    return regenerateTemplateEmbeddings(db, templateEmbedder(deps), checkCancelled);
  });
};

/** Template embeddings go through the configured embedding provider, like every other vector. */
function templateEmbedder({ embeddings }: GraphDeps): TemplateEmbedder {
  return {
    model: embeddings.identity().model,
    embed: async (texts) => (await embeddings.embed(texts)).map((vector) => Array.from(vector)),
  };
}
