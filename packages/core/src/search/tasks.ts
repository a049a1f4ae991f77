import type { Settings } from '@rhizome/contracts/settings';
import type { TaskRegistrar } from '../module/index.ts';
import type { DatabaseManager } from '../databases/index.ts';
import { taskDatabaseFor } from '../databases/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import { reembedOperation } from './operation-names.ts';
import { embedderIdentity, embedLackingChunks, embedLackingNodes, embedLackingTemplates } from './reembed.ts';
import { vectorKinds } from './vectors/files.ts';
import type { VectorWriterSet } from './vectors/writers.ts';

export interface SearchOperationDeps {
  databases: DatabaseManager;
  settings(): Settings;
  embeddings: EmbeddingService;
  writers: VectorWriterSet;
}

/**
 * `search.reembed` (llm lane, held while processing is paused): re-embeds every template, node and
 * chunk lacking a vector of the configured embedder, feeding the indexes as it goes, then checkpoints
 * each index for that embedder (rebuilt from SQLite if it held other vectors), so readers switch over.
 */
export function defineSearchOperations(registry: TaskRegistrar, deps: SearchOperationDeps): void {
  registry.define(reembedOperation, { queue: 'llm', pausable: true }, async ({ task, signal, checkCancelled }) => {
    const { name, db } = await taskDatabaseFor(deps.databases, task.data.database);
    const embed = (texts: string[]) =>
      deps.embeddings.embed(texts, { signal, context: { database: name, taskId: task.task_id } });
    const identity = await embedderIdentity(deps.embeddings, embed);
    const templates = await embedLackingTemplates(db, identity, embed, deps.writers.templates.sink(name));
    await checkCancelled();
    const nodes = await embedLackingNodes(db, identity, deps.embeddings, embed, deps.writers.nodes.sink(name), {
      keepGoing: false,
      checkCancelled,
    });
    const chunks = await embedLackingChunks(
      db,
      identity,
      embed,
      deps.writers.chunks.sink(name),
      deps.settings().batching.embedding_wave_size,
      checkCancelled,
    );
    for (const kind of vectorKinds) {
      await deps.writers[kind].settled();
      await deps.writers[kind].ensure(name, identity);
    }
    return { model: identity.model, dimensions: identity.dimensions, templates, nodes: nodes.embedded, chunks };
  });
}
