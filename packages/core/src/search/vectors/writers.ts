import type { DatabaseManager } from '../../databases/index.ts';
import type { EmbeddingIdentity } from '../../providers/index.ts';
import type { EmbeddingService } from '../../providers/index.ts';
import type { VectorKind } from './files.ts';
import { registerLocalStore, unregisterLocalStore } from './local-stores.ts';
import type { VectorItem } from './port.ts';
import { vectorSources, type VectorSource } from '../read-model/vector-sources.ts';
import { sameIdentity, VectorStore, type VectorStoreOptions } from './store.ts';

/** Vectors handed to an index but not yet inserted, past which a writer waits (bounds memory). */
const maxBacklog = 100_000;

/** Where vectors go once they are committed to SQLite. */
export interface VectorSink {
  /**
   * `identity`: the vectors' (default: the embedder's now, with the vectors' dimensions). Vectors of a
   * model the embedder no longer uses are orphans already and are left out of the index.
   */
  upsert(rows: VectorItem[], identity?: EmbeddingIdentity): Promise<void>;
  /**
   * Runs `work` (a bulk ingest) with insertion into this kind's indexes yielding to it: the index falls
   * behind while it runs and catches up after; searches cover what it lacks exactly meanwhile.
   */
  yieldingTo<T>(work: () => Promise<T>): Promise<T>;
}

export interface VectorWritersOptions {
  /** How often open indexes are compared with SQLite for writes made elsewhere (the API process); 0: never. */
  reconcileMs?: number;
  store?: VectorStoreOptions;
}

/**
 * The vector indexes of one item kind this process writes (the worker; exactly one writer per
 * database), opened on first use with the identity of the vectors being written. When the embedding
 * model changes, the next write reopens the store, which rebuilds the index from SQLite.
 *
 * Writes are applied behind the caller (decision 0010): an item is stored once its vector is in SQLite,
 * the source of truth, and HNSW insertion — several times slower than the builtin embedder — catches up
 * in the background. A crash before it does is repaired by the store's start-up reconcile. Vectors the
 * API process writes itself (a node's client-supplied embedding, `POST /search/embeddings` in the
 * stack) reach an open index through the periodic reconcile; readers cover them meanwhile.
 */
export class VectorWriters {
  readonly #stores = new Map<string, Promise<VectorStore>>();
  readonly #lastWrite = new Map<string, number>();
  #backlog = 0;
  readonly #applying = new Set<Promise<void>>();
  #yieldingTo = 0;
  #timer: NodeJS.Timeout | null = null;
  readonly #source: VectorSource;

  constructor(
    private readonly databases: DatabaseManager,
    private readonly embeddings: EmbeddingService,
    readonly kind: VectorKind,
    private readonly onError: (error: unknown) => void,
    private readonly options: VectorWritersOptions = {},
  ) {
    this.#source = vectorSources[kind];
  }

  sink(database: string): VectorSink {
    return {
      upsert: (rows, identity) => this.#upsert(database, rows, identity, true),
      yieldingTo: (work) => this.#yieldingToWork(work),
    };
  }

  /** A sink feeding only an index this process already has open: for writes the API process makes, which must not open a second writer. */
  openSink(database: string): VectorSink {
    return {
      upsert: (rows, identity) => this.#upsert(database, rows, identity, false),
      yieldingTo: (work) => this.#yieldingToWork(work),
    };
  }

  async #yieldingToWork<T>(work: () => Promise<T>): Promise<T> {
    this.#yieldingTo += 1;
    try {
      return await work();
    } finally {
      this.#yieldingTo -= 1;
    }
  }

  /** Resolves once every vector handed over so far is in its index. */
  async settled(): Promise<void> {
    while (this.#applying.size) await Promise.all(this.#applying);
  }

  /** Drops vectors (a deleted source's chunks) from an index this process has open; a closed one reconciles at its next open. */
  async remove(database: string, labels: number[]): Promise<void> {
    const open = this.#stores.get(database);
    if (open && labels.length) await (await open).remove(labels);
  }

  /** The index of `database` when this process has it open. */
  async opened(database: string): Promise<VectorStore | undefined> {
    return this.#stores.get(database)?.catch(() => undefined);
  }

  /** Opens the index for `identity`, rebuilding it from SQLite when it holds other vectors, and checkpoints it. */
  async ensure(database: string, identity: EmbeddingIdentity): Promise<VectorStore> {
    const store = await this.#store(database, identity);
    await store.flush();
    return store;
  }

  /**
   * Closes and forgets the index of `database` (its file was replaced by a backup): the next write or
   * `ensure` opens it again against the database's current connection.
   */
  async forget(database: string): Promise<void> {
    const opening = this.#stores.get(database);
    this.#stores.delete(database);
    this.#lastWrite.delete(database);
    const store = await opening?.catch(() => null);
    if (!store) return;
    unregisterLocalStore(this.databases.paths.databaseDir(database), this.kind, store);
    await store.close();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const stores = [...this.#stores.entries()];
    this.#stores.clear();
    await Promise.all(
      stores.map(async ([database, opening]) => {
        const store = await opening.catch(() => null);
        if (!store) return;
        unregisterLocalStore(this.databases.paths.databaseDir(database), this.kind, store);
        await store.close();
      }),
    );
  }

  async #upsert(
    database: string,
    rows: VectorItem[],
    given: EmbeddingIdentity | undefined,
    open: boolean,
  ): Promise<void> {
    if (!rows.length) return;
    const current = this.embeddings.identity();
    if (given && (given.provider !== current.provider || given.model !== current.model)) return;
    if (!open && !this.#stores.has(database)) return;
    const store = await this.#store(
      database,
      given ?? { provider: current.provider, model: current.model, dimensions: rows[0].vector.length },
    );
    this.#lastWrite.set(database, Date.now());
    const applied = store.upsert(rows);
    this.#backlog += rows.length;
    const tracked = applied.catch(this.onError).finally(() => {
      this.#backlog -= rows.length;
      this.#applying.delete(tracked);
    });
    this.#applying.add(tracked);
    if (this.#backlog > maxBacklog) await tracked;
  }

  async #store(database: string, identity: EmbeddingIdentity): Promise<VectorStore> {
    const open = this.#stores.get(database);
    if (open) {
      const store = await open;
      if (store.needsRebuild(identity)) await store.rebuild(identity);
      return store;
    }
    const databaseDir = this.databases.paths.databaseDir(database);
    const opening = this.databases.connection(database).then(async (db) => {
      const store = await VectorStore.open(databaseDir, this.kind, identity, db, this.#source, {
        onError: this.onError,
        yieldWhile: () => this.#yieldingTo > 0,
        ...this.options.store,
      });
      registerLocalStore(databaseDir, this.kind, store);
      this.#startReconciling();
      return store;
    });
    this.#stores.set(database, opening);
    opening.catch(() => this.#stores.delete(database));
    return opening;
  }

  /** Catches writes made to SQLite behind this process (the API's), once the index is idle. */
  #startReconciling(): void {
    const interval = this.options.reconcileMs ?? 60_000;
    if (this.#timer || interval <= 0) return;
    this.#timer = setInterval(() => {
      if (this.#backlog > 0) return;
      for (const [database, opening] of this.#stores) {
        if (Date.now() - (this.#lastWrite.get(database) ?? 0) < interval) continue;
        void opening
          .then(async (store) => {
            if (sameIdentity(store.heldIdentity, this.#identityOf(store))) await store.reconcile();
          })
          .catch(this.onError);
      }
    }, interval);
    this.#timer.unref();
  }

  /** The embedder's identity with the store's dimensions (a remote model's are known once it answered). */
  #identityOf(store: VectorStore): EmbeddingIdentity {
    const current = this.embeddings.identity();
    return {
      provider: current.provider,
      model: current.model,
      dimensions: current.dimensions ?? store.heldIdentity.dimensions,
    };
  }
}

/** The writers of every kind, for the platform. */
export type VectorWriterSet = Record<VectorKind, VectorWriters>;

export function createVectorWriters(
  databases: DatabaseManager,
  embeddings: EmbeddingService,
  onError: (kind: VectorKind, error: unknown) => void,
  options: VectorWritersOptions = {},
): VectorWriterSet {
  const writers = (kind: VectorKind) =>
    new VectorWriters(databases, embeddings, kind, (error) => onError(kind, error), options);
  return { chunks: writers('chunks'), nodes: writers('nodes'), templates: writers('templates') };
}
