import type {
  IndexStatusBody,
  NodeEmbeddingsBody,
  RebuiltBody,
  RegeneratingBody,
  SearchStatsBody,
} from '@rhizome/contracts/api/search-indexes';
import { describeError } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import type { QueueService } from '@rhizome/queue';
import { countNodes, reindexNodes } from '../graph/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { reembedOperation } from './operation-names.ts';
import { embedderIdentity, embedLackingNodes } from './reembed.ts';
import { fulltextEntries, reindexChunks } from './read-model/fulltext.ts';
import {
  configuredIdentity,
  describeIdentity,
  hasOrphanedVectors,
  storedVectorGroups,
} from './read-model/vector-identity.ts';
import { vectorKinds } from './vectors/files.ts';
import { vectorReaders, type VectorReaders } from './vectors/readers.ts';
import type { VectorWriterSet } from './vectors/writers.ts';

export interface SearchMaintenanceDeps {
  settings(): Settings;
  embeddings: EmbeddingService;
  queue: QueueService;
  /** This process's vector writers: only indexes it already has open are fed (the worker owns them). */
  writers: VectorWriterSet;
  readers?: VectorReaders;
}

/**
 * Index maintenance behind `/search/stats`, `/search/indexes` and `/search/embeddings`:
 * sizes, whether stored vectors are of another model or dimensions than the configured embedder, the
 * full-text rebuild, the background re-embedding, and embedding the nodes that lack a vector.
 */
export class SearchMaintenance {
  constructor(private readonly deps: SearchMaintenanceDeps) {}

  private get readers(): VectorReaders {
    return this.deps.readers ?? vectorReaders;
  }

  async stats(db: Db): Promise<SearchStatsBody> {
    const { identity } = await configuredIdentity(db, this.deps.embeddings, this.deps.settings());
    let vectors = 0;
    for (const kind of vectorKinds) vectors += await this.readers.reader(db, kind, identity).size();
    return {
      fulltext_doc_count: await fulltextEntries(db),
      vector_index_size: vectors,
      vector_dimension: identity.dimensions,
    };
  }

  async status(db: Db): Promise<IndexStatusBody> {
    const empty = {
      needs_rebuild: false,
      embedding_model: null,
      vector_dimensions: null,
      fulltext: null,
      vector: null,
      persisted_model: null,
      reason: null,
    };
    try {
      const { identity, dimensionsKnown } = await configuredIdentity(db, this.deps.embeddings, this.deps.settings());
      const byIdentity = new Map<string, { model: string; dimensions: number; count: number }>();
      for (const group of await storedVectorGroups(db)) {
        const key = `${group.model}\0${group.dimensions}`;
        const seen = byIdentity.get(key) ?? { model: group.model, dimensions: group.dimensions, count: 0 };
        seen.count += group.count;
        byIdentity.set(key, seen);
      }
      const stored = [...byIdentity.values()].sort((a, b) => b.count - a.count);
      const orphans = stored.filter(
        (group) => group.model !== identity.model || group.dimensions !== identity.dimensions,
      );
      const orphanCount = orphans.reduce((sum, group) => sum + group.count, 0);
      const persisted = stored[0] ?? null;
      return {
        needs_rebuild: orphans.length > 0,
        embedding_model: identity.model,
        vector_dimensions: dimensionsKnown ? identity.dimensions : this.deps.settings().search.vector_dimensions,
        fulltext: { document_count: await fulltextEntries(db) },
        vector: persisted ? { vector_count: persisted.count, dimensions: persisted.dimensions } : null,
        error: null,
        persisted_model: persisted?.model ?? null,
        reason: orphans.length
          ? `${orphanCount} stored vector(s) of ${orphans.map((group) => `${group.model} (${group.dimensions} dimensions)`).join(', ')}, not of the configured ${describeIdentity(identity)}`
          : null,
      };
    } catch (error) {
      return { ...empty, error: describeError(error) };
    }
  }

  /** 202 with the re-embedding task when vectors of another identity are stored, else the full-text rebuild's 200. */
  async rebuild(
    database: string,
    db: Db,
  ): Promise<{ status: 200; body: RebuiltBody } | { status: 202; body: RegeneratingBody }> {
    const { identity } = await configuredIdentity(db, this.deps.embeddings, this.deps.settings());
    if (await hasOrphanedVectors(db, identity)) {
      const running = await this.activeReembedding(database);
      const task =
        running ??
        (await this.deps.queue.submit({
          queue: 'llm',
          operation: reembedOperation,
          priority: this.deps.settings().priorities.background,
          data: { database },
          metadata: { database },
        }));
      return {
        status: 202,
        body: {
          task_id: task.task_id,
          status: 'queued',
          regenerated: true,
          message: running
            ? `Re-embedding of '${database}' with ${identity.model} is already under way`
            : `The embedding model or dimensions changed: every embedding of '${database}' is being regenerated with ${identity.model} in the background`,
        },
      };
    }
    const reindexed = await rebuildFullText(db);
    for (const kind of vectorKinds) await (await this.deps.writers[kind].opened(database))?.reconcile();
    const nodes = await countNodes(db);
    const withVectors = await this.readers.reader(db, 'nodes', identity).size();
    return {
      status: 200,
      body: {
        success: true,
        total_nodes: nodes,
        nodes_with_embeddings: withVectors,
        chunks_indexed: reindexed.chunks,
        message: `Rebuilt the full-text index (${reindexed.nodes} nodes, ${reindexed.chunks} chunks); the vectors are current (${describeIdentity(identity)})`,
      },
    };
  }

  /** Embeds every node lacking a usable vector, waiting until done; failures are counted and described in `message`. */
  async embedNodes(database: string, db: Db): Promise<NodeEmbeddingsBody> {
    const total = await countNodes(db);
    const embed = (texts: string[]) => this.deps.embeddings.embed(texts, { context: { database } });
    let identity;
    try {
      identity = await embedderIdentity(this.deps.embeddings, embed);
    } catch (error) {
      return {
        success: false,
        total_nodes: total,
        processed_count: 0,
        message: `No node was embedded: ${describeError(error)}`,
      };
    }
    const result = await embedLackingNodes(
      db,
      identity,
      this.deps.embeddings,
      embed,
      this.deps.writers.nodes.openSink(database),
      { keepGoing: true },
    );
    const failures = result.failed ? `; ${result.failed} node(s) failed: ${result.errors.join('; ')}` : '';
    return {
      success: result.failed === 0,
      total_nodes: total,
      processed_count: result.embedded,
      message: `Embedded ${result.embedded} node(s) that lacked an embedding with ${identity.model}${failures}`,
    };
  }

  /** A queued or running re-embedding of `database`, among the newest tasks of the llm lane. */
  private async activeReembedding(database: string) {
    const { tasks } = await this.deps.queue.store.list({ queues: ['llm'], offset: 0, limit: 200 });
    return (
      tasks.find(
        (task) =>
          task.operation === reembedOperation &&
          task.data.database === database &&
          (task.status === 'queued' || task.status === 'running'),
      ) ?? null
    );
  }
}

/** Re-enters every node (through the graph, which keeps that index) and every chunk into its full-text index. */
async function rebuildFullText(db: Db): Promise<{ nodes: number; chunks: number }> {
  return { nodes: await reindexNodes(db), chunks: await reindexChunks(db) };
}
