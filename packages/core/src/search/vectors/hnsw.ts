import hnswlib from 'hnswlib-node';
import { LabelSet } from './label-set.ts';
import type { LabelFilter, VectorHit, VectorIndex, VectorIndexFactory, VectorItem } from './port.ts';
import { describeError } from '@rhizome/contracts/errors';

const { HierarchicalNSW } = hnswlib;
type Hnsw = InstanceType<typeof HierarchicalNSW>;

/**
 * Graph parameters, from `pnpm bench:vectors` on this 2-core machine. Building is the scarce resource
 * (hnswlib-node inserts on one thread, the same thread that keeps indexing pace with the embedder),
 * query time is not (budget 50 ms): so a cheap graph, M 16 and efConstruction 40 (twice the insert
 * rate of M 32 / efConstruction 64), and recall bought at query time with an ef that grows with the
 * index. On chunk-like data (BENCH_DATA=chunks: three-sentence passages of the 2wiki corpus, builtin
 * 100-d vectors, dense with near-ties), recall@10 against exact search:
 * - 200k vectors: built in 23 s (8,700/s); ef 800 0.948, ef 1,600 0.975 (p95 2.6 ms);
 * - 1M vectors: built in 306 s (3,300/s, the host shared); ef 1,600 0.928, ef 3,200 0.953 (p95 9 ms,
 *   20 ms through a filter admitting half the labels); 523 MiB file.
 * (M 32 / efConstruction 64 at 200k: 4,400/s, ef 400 0.944.) Uniform random unit vectors, the worst
 * case for any graph index, need far more; real embeddings are far kinder.
 */
export interface HnswParams {
  m: number;
  efConstruction: number;
  /** ef of a search in an index of up to `efSearch × efSearchItemsPerEf` items; it grows with the index beyond. */
  efSearch: number;
  efSearchItemsPerEf: number;
  efSearchMax: number;
  /** Capacity of a new index; it grows by half whenever an add would overflow it. */
  initialCapacity: number;
}

export const defaultHnswParams: HnswParams = {
  m: 16,
  efConstruction: 40,
  efSearch: 400,
  efSearchItemsPerEf: 150,
  efSearchMax: 3200,
  initialCapacity: 1024,
};

/** The search ef for an index of `size` items (never below the `k` asked for). */
export function searchEf(params: HnswParams, size: number, k: number): number {
  return Math.max(
    k,
    Math.min(params.efSearchMax, Math.max(params.efSearch, Math.ceil(size / params.efSearchItemsPerEf))),
  );
}

const maxLabel = 0xffff_ffff;

/**
 * hnswlib-node in the 'cosine' space: it normalises every vector it is given, so a provider whose
 * vectors are not exactly unit length still gets true cosine, and distance is exactly 1 − cos. ('ip'
 * would skip that normalisation for no measurable gain at 100–1536 dimensions.)
 */
export class HnswIndex implements VectorIndex {
  private hnsw: Hnsw | null;
  private readonly removed: Set<number>;
  /** Live labels, for `has` (hnswlib can only answer it by throwing). */
  private readonly live: LabelSet;

  private constructor(
    hnsw: Hnsw,
    readonly dimensions: number,
    private readonly params: HnswParams,
    tombstones: Iterable<number>,
  ) {
    this.hnsw = hnsw;
    this.removed = new Set(tombstones);
    this.live = LabelSet.of(
      hnsw.getCurrentCount() ? hnsw.getIdsList().filter((label) => !this.removed.has(label)) : [],
    );
    hnsw.setEf(searchEf(params, hnsw.getCurrentCount(), 1));
  }

  static create(
    dimensions: number,
    params: HnswParams = defaultHnswParams,
    capacity = params.initialCapacity,
  ): HnswIndex {
    const hnsw = new HierarchicalNSW('cosine', dimensions);
    hnsw.initIndex({ maxElements: Math.max(1, capacity), m: params.m, efConstruction: params.efConstruction });
    return new HnswIndex(hnsw, dimensions, params, []);
  }

  /** Loads off the main thread (hnswlib's async reader), so a reader process keeps serving meanwhile. */
  static async load(
    file: string,
    dimensions: number,
    tombstones: number[],
    params: HnswParams = defaultHnswParams,
  ): Promise<HnswIndex> {
    const hnsw = new HierarchicalNSW('cosine', dimensions);
    await hnsw.readIndex(file);
    if (tombstones.length > hnsw.getCurrentCount())
      throw new Error(`${file} holds fewer items than its ${tombstones.length} removed labels`);
    return new HnswIndex(hnsw, dimensions, params, tombstones);
  }

  private get index(): Hnsw {
    if (!this.hnsw) throw new Error('the vector index is closed');
    return this.hnsw;
  }

  get size(): number {
    return this.index.getCurrentCount() - this.removed.size;
  }

  add(items: VectorItem[]): void {
    const index = this.index;
    for (const item of items) {
      checkLabel(item.label);
      if (item.vector.length !== this.dimensions)
        throw new Error(
          `vector of label ${item.label} has ${item.vector.length} dimensions, the index ${this.dimensions}`,
        );
    }
    // Counting re-adds as new only over-reserves a little.
    const needed = index.getCurrentCount() + items.length;
    if (needed > index.getMaxElements()) index.resizeIndex(Math.max(needed, Math.ceil(index.getMaxElements() * 1.5)));
    for (const item of items) {
      // Re-adding a label replaces its vector in place, un-deleting it if it was removed.
      index.addPoint(Array.from(item.vector), item.label);
      this.removed.delete(item.label);
      this.live.add(item.label);
    }
  }

  remove(labels: number[]): void {
    const index = this.index;
    for (const label of labels) {
      if (this.removed.has(label) || !Number.isInteger(label) || label < 0 || label > maxLabel) continue;
      try {
        index.markDelete(label);
        this.removed.add(label);
        this.live.delete(label);
      } catch (error) {
        const message = describeError(error);
        // A tombstone list saved a moment before the file it belongs to can miss a removal.
        if (message.includes('already deleted')) {
          this.removed.add(label);
          this.live.delete(label);
        } else if (!message.includes('Label not found')) throw error;
      }
    }
  }

  search(vector: Float32Array, k: number, filter?: LabelFilter): VectorHit[] {
    const index = this.index;
    const count = Math.min(k, index.getCurrentCount());
    if (count <= 0) return [];
    if (vector.length !== this.dimensions)
      throw new Error(`query has ${vector.length} dimensions, the index ${this.dimensions}`);
    index.setEf(searchEf(this.params, this.size, count));
    const result = index.searchKnn(Array.from(vector), count, filter);
    return result.neighbors.map((label, position) => ({
      label,
      distance: result.distances[position],
      similarity: 1 - result.distances[position],
    }));
  }

  labels(): number[] {
    return this.index.getIdsList().filter((label) => !this.removed.has(label));
  }

  has(label: number): boolean {
    return this.live.has(label);
  }

  vector(label: number): Float32Array | null {
    if (!this.live.has(label)) return null;
    return Float32Array.from(this.index.getPoint(label));
  }

  tombstones(): number[] {
    return [...this.removed];
  }

  async save(file: string): Promise<void> {
    await this.index.writeIndex(file);
  }

  close(): void {
    this.hnsw = null;
  }
}

function checkLabel(label: number): void {
  if (!Number.isInteger(label) || label < 0 || label > maxLabel)
    throw new RangeError(`vector label ${label} is not an integer in [0, 2^32)`);
}

export function hnswFactory(params: HnswParams = defaultHnswParams): VectorIndexFactory {
  return {
    create: (dimensions, capacity) => HnswIndex.create(dimensions, params, capacity),
    load: (file, dimensions, tombstones) => HnswIndex.load(file, dimensions, tombstones, params),
  };
}
