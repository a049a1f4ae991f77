/**
 * The vector index port: an in-memory approximate nearest-neighbour index over integer labels (a row's
 * SQLite rowid), compared by cosine on L2-normalised vectors. Persistence policy (checkpoints, rebuilds,
 * reconciling with SQLite) lives in `VectorStore`; an adapter only knows how to hold, save and load.
 */

export interface VectorItem {
  /** An integer in [0, 2^32). */
  label: number;
  vector: Float32Array;
}

export interface VectorHit {
  label: number;
  /** Cosine distance, 1 − cos. */
  distance: number;
  /** 1 − distance. */
  similarity: number;
}

/** Called for candidate labels during a search; only labels it accepts are returned (scope, enabled sources). */
export type LabelFilter = (label: number) => boolean;

export interface VectorIndex {
  readonly dimensions: number;
  /** Live items: removed labels excluded. */
  readonly size: number;
  /** Adds items; an existing label's vector is replaced. */
  add(items: VectorItem[]): void;
  /** Removes labels; unknown ones are ignored. */
  remove(labels: number[]): void;
  /** Up to `k` nearest live items, nearest first. */
  search(vector: Float32Array, k: number, filter?: LabelFilter): VectorHit[];
  /** Every live label, in no particular order. */
  labels(): number[];
  /** Whether `label` is live. */
  has(label: number): boolean;
  /** The stored vector of a live label (normalised, as the index compares it), else null. */
  vector(label: number): Float32Array | null;
  /**
   * Removed labels that still occupy a slot in the saved file: whoever saves the index keeps this list
   * and gives it back to `load`, since the file alone does not tell which labels are live cheaply.
   */
  tombstones(): number[];
  /** Writes the whole index to `file`. No writes may run until it settles; searches may. */
  save(file: string): Promise<void>;
  /** Releases the native memory; the index is unusable afterwards. */
  close(): void;
}

export interface VectorIndexFactory {
  /** `capacity`: how many items to make room for up front (the index grows past it as needed). */
  create(dimensions: number, capacity?: number): VectorIndex;
  /** Rejects when the file is missing, truncated or not an index file. */
  load(file: string, dimensions: number, tombstones: number[]): Promise<VectorIndex>;
}
