import path from 'node:path';
import type { EmbeddingIdentity } from '../../providers/index.ts';
import { perDialect, type Db } from '../../storage/index.ts';
import type { VectorKind } from './files.ts';
import { localStore } from './local-stores.ts';
import type { LabelFilter, VectorHit } from './port.ts';
import { vectorSources, type VectorSource } from '../read-model/vector-sources.ts';
import { sameIdentity, VectorStore, type VectorStoreOptions } from './store.ts';

export interface VectorReadersOptions {
  /** Options of the reader stores (poll interval, index factory). */
  store?: VectorStoreOptions;
  /** Vectors a reader holds beside its index, at most (about 400 bytes each at 100 dimensions). */
  maxTail?: number;
}

/** Rows read per query while catching up with SQLite. */
const sinceBatch = 2_000;
/** Rows per page of the newest-first walk that finds, at open, what the checkpoint lacks. */
const openPage = 1_024;
/** A tail is checked against its index at most this often while the index keeps changing. */
const pruneEveryMs = 500;
/** How long a replaced reader stays open for the searches already using it. */
const replacedGraceMs = 5_000;
/** Cosine above which an indexed vector is taken to be the stored one. */
const sameVector = 1 - 1e-6;

/**
 * The vector index one database and item kind as the API process searches it, for one embedding
 * identity. It searches this process's writer store when there is one (the worker, the embedded
 * default), else a reader store loading the writer's checkpoints. Either lags SQLite: a reader by up to
 * a checkpoint interval, a writer by its insertion backlog (decision 0010). So a reader also holds a
 * *tail*: the vectors SQLite has and the index lacks (or holds an older vector of), found through the
 * kind's write sequence (only rows written since the last look are read), searched exactly and merged
 * with the index's hits. Tail entries are dropped once the index holds the same vector.
 *
 * Not covered: a vector replaced in place without a new sequence (re-embedding a chunk with another
 * model does that: a chunk vector is keyed by the chunk's rowid, migration 0012), and rows whose
 * sequence SQLite handed out again after the newest rows were deleted, unless a search ran in between;
 * either reaches the index at the writer's next write, checkpoint or reconcile.
 */
export class VectorReader {
  readonly #source: VectorSource;
  #own: VectorStore | null = null;
  #opening: Promise<VectorStore> | null = null;
  readonly #tail: Tail;
  #watermark = 0;
  #initialized = false;
  #syncing: Promise<VectorStore> | null = null;
  #prunedStore: VectorStore | null = null;
  #prunedGeneration = -1;
  #prunedAt = 0;
  #closed = false;

  constructor(
    readonly databaseDir: string,
    readonly kind: VectorKind,
    readonly identity: EmbeddingIdentity,
    readonly db: Db,
    private readonly options: VectorReadersOptions = {},
  ) {
    this.#source = vectorSources[kind];
    this.#tail = new Tail(identity.dimensions);
  }

  /** Vectors held beside the index, not yet in it. */
  get tailSize(): number {
    return this.#tail.size;
  }

  /** How many vectors of the identity a search sees: the index's and the tail's. */
  async size(): Promise<number> {
    const store = await this.#sync();
    let extra = 0;
    for (let slot = 0; slot < this.#tail.size; slot += 1) if (!store.has(this.#tail.labelAt(slot))) extra += 1;
    return store.size + extra;
  }

  /**
   * Up to `k` nearest vectors, nearest first, among the labels `filter` accepts: the index's approximate
   * hits and the tail's exact ones (which win for a label both have).
   */
  async search(query: Float32Array, k: number, filter?: LabelFilter): Promise<VectorHit[]> {
    const store = await this.#sync();
    const tail = this.#tail;
    if (!tail.size) return store.search(query, k, filter);
    // Only replaced labels are both in the index and in the tail: fetch that many more, and drop their stale index hits.
    const best = new TopHits(k);
    for (const hit of store.search(query, k + tail.replacedCount, filter))
      if (!tail.has(hit.label)) best.offer(hit.label, hit.similarity);
    tail.scan(normalised(query), best, filter);
    return best.sorted();
  }

  /** Exact search over these labels only, read from SQLite: for a narrow scope, where a filtered HNSW walk would wander. */
  async searchAmong(query: Float32Array, labels: number[], k: number): Promise<VectorHit[]> {
    const unit = normalised(query);
    const items = await this.#source.fetch(this.db, this.identity, labels);
    return items
      .map((item) => {
        const similarity = dot(unit, normalised(item.vector));
        return { label: item.label, similarity, distance: 1 - similarity };
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const own = this.#own ?? (await this.#opening?.catch(() => null));
    this.#own = null;
    await own?.close();
  }

  /** The store to search, with the tail caught up with SQLite and checked against it. */
  #sync(): Promise<VectorStore> {
    this.#syncing ??= (async () => {
      try {
        const store = await this.#store();
        if (!this.#initialized) await this.#openTail(store);
        else await this.#advance(store);
        this.#initialized = true;
        this.#prune(store);
        return store;
      } finally {
        this.#syncing = null;
      }
    })();
    return this.#syncing;
  }

  async #store(): Promise<VectorStore> {
    if (this.#closed) throw new Error('the vector reader is closed');
    const local = localStore(this.databaseDir, this.kind);
    if (local && !local.needsRebuild(this.identity)) {
      if (this.#own) {
        const own = this.#own;
        this.#own = null;
        this.#opening = null;
        await own.close();
      }
      return local;
    }
    if (this.#own) return this.#own;
    this.#opening ??= VectorStore.open(this.databaseDir, this.kind, this.identity, this.db, this.#source, {
      ...this.options.store,
      role: 'reader',
    });
    try {
      this.#own = await this.#opening;
    } catch (error) {
      this.#opening = null;
      throw error;
    }
    return this.#own;
  }

  get #maxTail(): number {
    return this.options.maxTail ?? 200_000;
  }

  /** At open: walks the newest rows back until a whole page is in the index (the checkpoint's frontier). */
  async #openTail(store: VectorStore): Promise<void> {
    const last = await this.#source.lastSeq(this.db);
    const missing: number[] = [];
    for (let before = last + 1; missing.length < this.#maxTail;) {
      const page = await this.#source.before(this.db, this.identity, before, openPage);
      const absent = page.filter((row) => !store.has(row.label));
      missing.push(...absent.map((row) => row.label));
      if (page.length < openPage || absent.length === 0) break;
      before = page[page.length - 1].seq;
    }
    for (const item of await this.#source.fetch(this.db, this.identity, missing.slice(0, this.#maxTail)))
      this.#record(store, item.label, item.vector);
    this.#watermark = last;
  }

  /** Reads the rows written since the last look. */
  async #advance(store: VectorStore): Promise<void> {
    const last = await this.#source.lastSeq(this.db);
    // The newest rows were deleted, so SQLite hands their rowids out again: look from what is left.
    if (last < this.#watermark) this.#watermark = last;
    while (last > this.#watermark && this.#tail.size < this.#maxTail) {
      const rows = await this.#source.since(this.db, this.identity, this.#watermark, sinceBatch);
      for (const row of rows) this.#record(store, row.label, row.vector);
      const seen = rows.length ? rows[rows.length - 1].seq : 0;
      this.#watermark = rows.length < sinceBatch ? Math.max(last, seen) : seen;
    }
  }

  #record(store: VectorStore, label: number, vector: Float32Array): void {
    const unit = normalised(vector);
    if (store.has(label)) {
      const held = store.vector(label);
      if (held && dot(held, unit) >= sameVector) {
        this.#tail.delete(label);
        return;
      }
      this.#tail.set(label, unit, true);
    } else {
      this.#tail.set(label, unit, false);
    }
  }

  /** Drops the tail entries the index now holds, whenever the index changed (at most every `pruneEveryMs` while it keeps changing). */
  #prune(store: VectorStore): void {
    if (!this.#tail.size) return;
    const switched = store !== this.#prunedStore;
    if (!switched && (store.generation === this.#prunedGeneration || Date.now() - this.#prunedAt < pruneEveryMs))
      return;
    const tail = this.#tail;
    // Backwards: deleting swaps the last entry into the freed slot.
    for (let slot = tail.size - 1; slot >= 0; slot -= 1) {
      const label = tail.labelAt(slot);
      if (!store.has(label)) continue;
      if (!tail.replacedAt(slot)) {
        tail.delete(label);
        continue;
      }
      const held = store.vector(label);
      if (held && dot(held, tail.vectorAt(slot)) >= sameVector) tail.delete(label);
    }
    this.#prunedStore = store;
    this.#prunedGeneration = store.generation;
    this.#prunedAt = Date.now();
  }
}

/**
 * The vector readers of this process, opened lazily per database directory, kind and identity. A
 * process needs one per index whatever platform asked (they are keyed by directory), so `vectorReaders`
 * below is shared by every search of the process.
 */
export class VectorReaders {
  readonly #readers = new Map<string, VectorReader>();

  constructor(private readonly options: VectorReadersOptions = {}) {}

  /** The reader of `db`'s index of `kind` for vectors of `identity` (replaced when the identity or the connection changed). */
  reader(db: Db, kind: VectorKind, identity: EmbeddingIdentity): VectorReader {
    const databaseDir = databaseDirOf(db);
    const key = `${databaseDir}\0${kind}`;
    const existing = this.#readers.get(key);
    if (existing && existing.db === db && sameIdentity(existing.identity, identity)) return existing;
    // A search may still be using the old one: close it a little later.
    if (existing) setTimeout(() => void existing.close().catch(() => undefined), replacedGraceMs).unref();
    const reader = new VectorReader(databaseDir, kind, identity, db, this.options);
    this.#readers.set(key, reader);
    return reader;
  }

  /** Closes the readers of databases under `root` (a data directory), or all. */
  async close(root?: string): Promise<void> {
    const prefix = root === undefined ? null : path.resolve(root) + path.sep;
    const closing: Promise<void>[] = [];
    for (const [key, reader] of this.#readers) {
      if (prefix && !key.startsWith(prefix)) continue;
      this.#readers.delete(key);
      closing.push(reader.close().catch(() => undefined));
    }
    await Promise.all(closing);
  }
}

/** The readers every search of this process shares. */
export const vectorReaders = new VectorReaders();

/**
 * The directory of the database `db` is connected to (`<data_dir>/databases/<name>`), where its `vectors/`
 * live: the SQLite file's, or, for a schema on a PostgreSQL server, the one its knex was made with
 * (`directory` of its config), since the index files stay caches of each process.
 */
export const databaseDirOf = perDialect<[], string>({
  sqlite: (db) => {
    const connection = (db.client as { config?: { connection?: { filename?: unknown } } }).config?.connection;
    if (typeof connection?.filename !== 'string') throw new Error('the vector index needs a SQLite database file');
    return path.dirname(path.resolve(connection.filename));
  },
  postgres: (db) => {
    const directory = (db.client as { config?: { directory?: unknown } }).config?.directory;
    if (typeof directory !== 'string') throw new Error('the vector index needs the directory of the database');
    return path.resolve(directory);
  },
});

export function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i += 1) norm += vector[i] * vector[i];
  norm = Math.sqrt(norm);
  if (norm === 0 || Math.abs(norm - 1) < 1e-7) return vector;
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i += 1) unit[i] = vector[i] / norm;
  return unit;
}

/**
 * The tail's vectors, packed in one Float32Array (an exact scan over thousands of them is a tight loop,
 * not a walk over objects), with a label → slot map; a deleted slot takes the last entry.
 */
class Tail {
  readonly #slots = new Map<number, number>();
  readonly #labels: number[] = [];
  readonly #replaced: boolean[] = [];
  #data: Float32Array;
  #replacedCount = 0;

  constructor(private readonly dimensions: number) {
    this.#data = new Float32Array(dimensions * 64);
  }

  get size(): number {
    return this.#labels.length;
  }

  /** Entries whose label the index also holds (with an older vector). */
  get replacedCount(): number {
    return this.#replacedCount;
  }

  has(label: number): boolean {
    return this.#slots.has(label);
  }

  labelAt(slot: number): number {
    return this.#labels[slot];
  }

  replacedAt(slot: number): boolean {
    return this.#replaced[slot];
  }

  vectorAt(slot: number): Float32Array {
    return this.#data.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** `vector` must be L2-normalised. */
  set(label: number, vector: Float32Array, replaced: boolean): void {
    let slot = this.#slots.get(label);
    if (slot === undefined) {
      slot = this.#labels.length;
      if ((slot + 1) * this.dimensions > this.#data.length) {
        const grown = new Float32Array(this.#data.length * 2);
        grown.set(this.#data);
        this.#data = grown;
      }
      this.#slots.set(label, slot);
      this.#labels.push(label);
      this.#replaced.push(false);
    }
    if (this.#replaced[slot] !== replaced) this.#replacedCount += replaced ? 1 : -1;
    this.#replaced[slot] = replaced;
    this.#data.set(vector, slot * this.dimensions);
  }

  delete(label: number): void {
    const slot = this.#slots.get(label);
    if (slot === undefined) return;
    if (this.#replaced[slot]) this.#replacedCount -= 1;
    const last = this.#labels.length - 1;
    if (slot !== last) {
      const moved = this.#labels[last];
      this.#labels[slot] = moved;
      this.#replaced[slot] = this.#replaced[last];
      this.#data.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.#slots.set(moved, slot);
    }
    this.#labels.pop();
    this.#replaced.pop();
    this.#slots.delete(label);
  }

  /** Offers every entry `filter` accepts to `best`, by cosine with the normalised `query`. */
  scan(query: Float32Array, best: TopHits, filter?: LabelFilter): void {
    const data = this.#data;
    const labels = this.#labels;
    const count = labels.length;
    const dimensions = this.dimensions;
    let floor = best.floor();
    for (let slot = 0, offset = 0; slot < count; slot += 1, offset += dimensions) {
      let similarity = 0;
      for (let i = 0; i < dimensions; i += 1) similarity += query[i] * data[offset + i];
      if (similarity <= floor) continue;
      const label = labels[slot];
      if (filter && !filter(label)) continue;
      best.offer(label, similarity);
      floor = best.floor();
    }
  }
}

/** The `k` best (label, similarity) pairs offered, kept in a min-heap. */
class TopHits {
  readonly #labels: number[] = [];
  readonly #scores: number[] = [];

  constructor(private readonly k: number) {}

  /** What a similarity must beat to be kept. */
  floor(): number {
    return this.#scores.length < this.k ? -Infinity : this.#scores[0];
  }

  offer(label: number, similarity: number): void {
    const labels = this.#labels;
    const scores = this.#scores;
    if (scores.length < this.k) {
      let at = scores.length;
      labels.push(label);
      scores.push(similarity);
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (scores[parent] <= scores[at]) break;
        this.#swap(at, parent);
        at = parent;
      }
      return;
    }
    if (similarity <= scores[0]) return;
    labels[0] = label;
    scores[0] = similarity;
    for (let at = 0; ;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < scores.length && scores[left] < scores[least]) least = left;
      if (right < scores.length && scores[right] < scores[least]) least = right;
      if (least === at) break;
      this.#swap(at, least);
      at = least;
    }
  }

  sorted(): VectorHit[] {
    return this.#labels
      .map((label, index) => ({ label, similarity: this.#scores[index], distance: 1 - this.#scores[index] }))
      .sort((a, b) => b.similarity - a.similarity);
  }

  #swap(a: number, b: number): void {
    [this.#labels[a], this.#labels[b]] = [this.#labels[b], this.#labels[a]];
    [this.#scores[a], this.#scores[b]] = [this.#scores[b], this.#scores[a]];
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
}
