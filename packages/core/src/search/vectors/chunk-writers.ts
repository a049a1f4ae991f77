import type { DatabaseManager } from '../../databases/manager.ts';
import type { EmbeddingService } from '../../providers/embeddings/service.ts';
import type { ChunkVectorSink } from '../../sources/indexing.ts';
import { chunkVectorSource } from './sources.ts';
import { VectorStore } from './store.ts';

/** Vectors handed to an index but not yet inserted, past which a writer waits (bounds memory). */
const maxBacklog = 100_000;

/**
 * The chunk vector indexes this process writes (the worker; exactly one writer per database), opened
 * on first use with the identity of the vectors being written. When the embedding model changes, the
 * next write reopens the store, which rebuilds the index from SQLite.
 *
 * Writes are applied behind the caller (decision 0010): a chunk is indexed once its vector is in SQLite,
 * the source of truth, and HNSW insertion — several times slower than the builtin embedder — catches up
 * in the background. A crash before it does is repaired by the store's start-up reconcile.
 */
export class ChunkVectorWriters {
  readonly #stores = new Map<string, Promise<VectorStore>>();
  #backlog = 0;
  #applying = new Set<Promise<void>>();

  constructor(
    private readonly databases: DatabaseManager,
    private readonly embeddings: EmbeddingService,
    private readonly onError: (error: unknown) => void,
  ) {}

  sink(database: string): ChunkVectorSink {
    return {
      upsert: async (rows) => {
        if (!rows.length) return;
        const store = await this.#store(database, rows[0].vector.length);
        const applied = store.upsert(rows);
        this.#backlog += rows.length;
        const tracked = applied.catch(this.onError).finally(() => {
          this.#backlog -= rows.length;
          this.#applying.delete(tracked);
        });
        this.#applying.add(tracked);
        if (this.#backlog > maxBacklog) await tracked;
      },
    };
  }

  /** Resolves once every vector handed over so far is in its index. */
  async settled(): Promise<void> {
    while (this.#applying.size) await Promise.all(this.#applying);
  }

  /** Drops chunk vectors (a deleted source) from an index this process has open; a closed one reconciles at its next open. */
  async remove(database: string, labels: number[]): Promise<void> {
    const open = this.#stores.get(database);
    if (open && labels.length) await (await open).remove(labels);
  }

  async close(): Promise<void> {
    const stores = [...this.#stores.values()];
    this.#stores.clear();
    await Promise.all(stores.map(async (store) => (await store).close()));
  }

  async #store(database: string, dimensions: number): Promise<VectorStore> {
    const identity = { ...this.embeddings.identity(), dimensions };
    const open = this.#stores.get(database);
    if (open) {
      const store = await open;
      if (!store.needsRebuild(identity)) return store;
      await store.rebuild(identity);
      return store;
    }
    const opening = this.databases
      .connection(database)
      .then((db) => VectorStore.open(this.databases.paths.databaseDir(database), 'chunks', identity, db, chunkVectorSource, { onError: this.onError }));
    this.#stores.set(database, opening);
    opening.catch(() => this.#stores.delete(database));
    return opening;
  }
}
