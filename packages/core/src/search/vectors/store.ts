/**
 * One database's vector index for one item kind, kept consistent with SQLite, where the vectors live.
 *
 * Writer (the worker, or the single embedded process). Callers commit vectors to SQLite first, then
 * call `upsert` / `remove`, which append the labels to the journal of the current checkpoint and apply
 * them in memory. A checkpoint (the whole graph written beside its final name, flushed, renamed in,
 * followed by the marker; then the journals are dropped) runs at most `checkpointIntervalMs` after the
 * first unsaved write, at once after `checkpointWrites` unsaved writes, and on close. Mutations are
 * serialised, so none runs while hnswlib writes the graph on its own thread.
 *
 * Start-up, crash recovery. A missing, unreadable or mis-sized graph, a marker of another identity or
 * format, a live count that disagrees with the marker, or too many tombstones: rebuild from SQLite.
 * Otherwise every journaled label is re-read from SQLite and re-applied (present: add or replace;
 * absent: remove), which is exact for everything that went through the store, even a rowid SQLite
 * reused. What bypassed the store (rows deleted by another process, a crash between the SQLite commit
 * and the journal append) is caught by comparing the live count with SQLite's, then diffing labels.
 *
 * Reader (the API process). It never writes files: it loads the last checkpoint (off the main thread)
 * and, before a search, at most every `pollMs`, stats the marker in the background; when a new
 * checkpoint has landed it loads it and swaps it in, searches meanwhile answering from the old one. So
 * a reader lags the writer by at most one checkpoint interval plus one poll. Search results are labels;
 * callers hydrate them from SQLite, which drops any label deleted since.
 */
import type { Db } from '../../storage/index.ts';
import { SerialQueue } from '@rhizome/contracts/serial';
import type { EmbeddingIdentity } from '../../providers/index.ts';
import { metaFormat, newCheckpointId, VectorFiles, type VectorKind, type VectorMeta } from './files.ts';
import { hnswFactory } from './hnsw.ts';
import type { LabelFilter, VectorHit, VectorIndex, VectorIndexFactory, VectorItem } from './port.ts';
import type { VectorSource } from '../read-model/vector-sources.ts';
import { describeError } from '@rhizome/contracts/errors';

export type { VectorKind } from './files.ts';

export interface VectorStoreOptions {
  /** Exactly one writer per database; default 'writer'. */
  role?: 'writer' | 'reader';
  checkpointIntervalMs?: number;
  checkpointWrites?: number;
  pollMs?: number;
  factory?: VectorIndexFactory;
  /** Failures of background work (timed checkpoints, reader reloads), which have no caller to throw to. */
  onError?: (error: unknown) => void;
  /**
   * While this answers true, insertion waits as long as fewer than `deferUpTo` vectors are waiting, and
   * past that pauses `yieldingPauseMs` after each slice, taking a fifth of the event loop instead of all
   * it can get: the work it yields to (a source being indexed) comes first.
   */
  yieldWhile?: () => boolean;
  /**
   * Searches cover the vectors waiting exactly (a reader's tail), by a scan that grows with them; default
   * 100,000 (a scan of about 10 ms at 100 dimensions).
   */
  deferUpTo?: number;
}

export interface StartupReport {
  action: 'loaded' | 'rebuilt' | 'empty';
  /** Why it was rebuilt. */
  reason?: string;
  /** Journaled labels re-read from SQLite. */
  replayed: number;
  /** Labels added / removed by the count check's diff. */
  added: number;
  removed: number;
}

const rebuildBatch = 256;
/** Vectors inserted between clock reads, and how long an insertion slice may hold the event loop. */
const applyStep = 8;
const applySliceMs = 4;
const yieldingPauseMs = 16;
/** Tombstones still take a graph slot each and slow searches; past this share of slots, rebuild. */
const compactionShare = 0.2;
const compactionMinimum = 1000;

export class VectorStore {
  private index: VectorIndex;
  private checkpoint: string | null = null;
  private closeRequested = false;
  private pending = 0;
  private lastCheckpointAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue = new SerialQueue();
  private markerKey: string | null = null;
  private lastPoll = 0;
  private polling = false;
  private closed = false;
  private closing: Promise<void> | null = null;
  private report: StartupReport = { action: 'empty', replayed: 0, added: 0, removed: 0 };
  private changes = 0;

  private readonly files: VectorFiles;
  private readonly role: 'writer' | 'reader';
  private readonly factory: VectorIndexFactory;
  private readonly checkpointIntervalMs: number;
  private readonly checkpointWrites: number;
  private readonly pollMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly yieldWhile: () => boolean;
  private readonly deferUpTo: number;
  /** Vectors handed to `upsert` and not yet in the index. */
  private waiting = 0;

  private constructor(
    databaseDir: string,
    kind: VectorKind,
    private identity: EmbeddingIdentity,
    private readonly db: Db,
    private readonly source: VectorSource,
    options: VectorStoreOptions,
  ) {
    this.files = new VectorFiles(databaseDir, kind);
    this.role = options.role ?? 'writer';
    this.factory = options.factory ?? hnswFactory();
    this.checkpointIntervalMs = options.checkpointIntervalMs ?? 15_000;
    this.checkpointWrites = options.checkpointWrites ?? 50_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.onError =
      options.onError ?? ((error) => process.emitWarning(`vector index ${this.files.index}: ${describeError(error)}`));
    this.yieldWhile = options.yieldWhile ?? (() => false);
    this.deferUpTo = options.deferUpTo ?? 100_000;
    this.index = this.factory.create(identity.dimensions);
  }

  /** Opens `<databaseDir>/vectors/<kind>.*`: a writer reconciles with SQLite first, a reader loads the last checkpoint. */
  static async open(
    databaseDir: string,
    kind: VectorKind,
    identity: EmbeddingIdentity,
    db: Db,
    source: VectorSource,
    options: VectorStoreOptions = {},
  ): Promise<VectorStore> {
    const store = new VectorStore(databaseDir, kind, identity, db, source, options);
    if (store.role === 'writer') {
      store.report = await store.start();
    } else {
      // A reader left empty by an unreadable checkpoint retries at its next poll.
      await store.refresh().catch(store.onError);
      if (store.checkpoint) store.report = { ...store.report, action: 'loaded' };
    }
    return store;
  }

  /** What opening did: loaded the checkpoint, rebuilt (and why), and how much reconciling took. */
  get startup(): StartupReport {
    return this.report;
  }

  get size(): number {
    return this.index.size;
  }

  /** Changes whenever what the index holds may have changed (a write applied, a checkpoint swapped in, a rebuild). */
  get generation(): number {
    return this.changes;
  }

  /** Whether the index holds `label` now. */
  has(label: number): boolean {
    return this.index.has(label);
  }

  /** The vector the index holds for `label` (normalised), or null. */
  vector(label: number): Float32Array | null {
    return this.index.vector(label);
  }

  /** Whose vectors the index holds (or, for a reader, is waiting for). */
  get heldIdentity(): EmbeddingIdentity {
    return this.identity;
  }

  /** True when the vectors held are not of `identity` (the embedding provider, model or dimensions changed). */
  needsRebuild(identity: EmbeddingIdentity): boolean {
    return !sameIdentity(identity, this.identity);
  }

  /**
   * Serves `identity` from now on. A writer rebuilds from SQLite's vectors of that identity (none yet,
   * typically, until re-embedding upserts them) and checkpoints; a reader drops what it holds and waits
   * for the writer's checkpoint of that identity.
   */
  rebuild(identity: EmbeddingIdentity): Promise<void> {
    return this.serial(async () => {
      this.identity = identity;
      if (this.role === 'writer') return this.rebuildNow();
      this.replaceIndex(this.factory.create(identity.dimensions), null);
      this.markerKey = null;
      await this.reload();
    });
  }

  /**
   * Rows the caller has already committed to SQLite. Inserting into HNSW is synchronous and costly
   * (about 50 µs a vector), so a large batch is applied in slices of about `applySliceMs`, yielding in
   * between: in the embedded default this event loop also answers the API.
   */
  upsert(rows: VectorItem[]): Promise<void> {
    let applied = 0;
    this.waiting += rows.length;
    // Closing skips queued insertions rather than waiting for them: SQLite has the vectors, and the next open's reconcile adds them.
    return this.write(
      'upsert',
      rows.map((row) => row.label),
      async () => {
        let sliceStarted = performance.now();
        while (applied < rows.length && !this.closeRequested) {
          const sliceOver = performance.now() - sliceStarted >= applySliceMs;
          if (this.yieldWhile() && (this.waiting < this.deferUpTo || sliceOver)) {
            await new Promise((resolve) => setTimeout(resolve, yieldingPauseMs));
            sliceStarted = performance.now();
            continue;
          }
          if (sliceOver) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStarted = performance.now();
          }
          const added = Math.min(applyStep, rows.length - applied);
          this.index.add(rows.slice(applied, applied + added));
          applied += added;
          this.waiting -= added;
        }
      },
    ).finally(() => (this.waiting -= rows.length - applied));
  }

  remove(labels: number[]): Promise<void> {
    return this.write('remove', labels, () => this.index.remove(labels));
  }

  search(vector: Float32Array, k: number, filter?: LabelFilter): VectorHit[] {
    if (this.role === 'reader') this.poll();
    return this.index.search(vector, k, filter);
  }

  /** Writer: checkpoints now if anything is unsaved. */
  flush(): Promise<void> {
    return this.serial(async () => {
      if (this.pending > 0) await this.checkpointNow();
    });
  }

  /** Writer: the count check and label diff of start-up, for changes made to SQLite behind the store's back. */
  reconcile(): Promise<{ added: number; removed: number }> {
    return this.serial(async () => {
      const diff = await this.diffWithSqlite();
      if (diff.added + diff.removed > 0) await this.checkpointNow();
      return diff;
    });
  }

  /** Reader: loads the writer's latest checkpoint if it is newer than the one held. */
  refresh(): Promise<void> {
    return this.serial(() => this.reload());
  }

  close(): Promise<void> {
    this.closeRequested = true;
    this.closing ??= this.serial(async () => {
      if (this.role === 'writer' && this.pending > 0) await this.checkpointNow();
      this.clearTimer();
      this.closed = true;
      this.index.close();
    });
    return this.closing;
  }

  private serial<T>(operation: () => Promise<T>): Promise<T> {
    return this.queue.run(() => {
      if (this.closed) throw new Error('the vector store is closed');
      return operation();
    });
  }

  private write(kind: 'upsert' | 'remove', labels: number[], apply: () => void | Promise<void>): Promise<void> {
    if (this.role !== 'writer') return Promise.reject(new Error('a reader vector store cannot write'));
    return this.serial(async () => {
      if (labels.length === 0 || (this.closeRequested && kind === 'upsert')) return;
      this.files.appendJournal(this.checkpoint!, labels);
      await apply();
      this.changes += 1;
      this.pending += labels.length;
      if (this.pending >= this.checkpointWrites) return this.checkpointNow();
      if (!this.timer) {
        this.timer = setTimeout(
          () => {
            this.timer = null;
            this.serial(async () => {
              if (this.pending > 0) await this.checkpointNow();
            }).catch(this.onError);
          },
          Math.max(0, this.lastCheckpointAt + this.checkpointIntervalMs - Date.now()),
        );
        this.timer.unref();
      }
    });
  }

  private async start(): Promise<StartupReport> {
    const meta = await this.files.readMeta();
    const loaded = await this.loadCheckpoint(meta);
    if (typeof loaded === 'string') {
      await this.rebuildNow();
      return { action: 'rebuilt', reason: loaded, replayed: 0, added: 0, removed: 0 };
    }
    this.replaceIndex(loaded, meta!.checkpoint);
    const journals = this.files.journals();
    const touched = this.files.readJournals(journals);
    if (touched.length > 0) {
      const present = await this.source.fetch(this.db, this.identity, touched);
      const found = new Set(present.map((row) => row.label));
      this.index.remove(touched.filter((label) => !found.has(label)));
      this.index.add(present);
    }
    const diff = await this.diffWithSqlite();
    if (journals.length > 0 || diff.added + diff.removed > 0) await this.checkpointNow();
    else this.lastCheckpointAt = Date.parse(meta!.checkpointed_at);
    return { action: 'loaded', replayed: touched.length, ...diff };
  }

  /** The checkpoint's index, or why it cannot be used. */
  private async loadCheckpoint(meta: VectorMeta | null): Promise<VectorIndex | string> {
    if (!meta) return 'no usable checkpoint marker';
    if (!sameIdentity(meta.identity, this.identity))
      return `the index holds ${describe(meta.identity)} vectors, not ${describe(this.identity)}`;
    if ((await this.files.indexBytes()) !== meta.bytes)
      return 'the index file is missing or not the one the marker describes';
    const tombstones = meta.tombstones.length;
    if (tombstones >= compactionMinimum && tombstones > compactionShare * (meta.count + tombstones))
      return `${tombstones} removed items to compact`;
    let index: VectorIndex;
    try {
      index = await this.factory.load(this.files.index, this.identity.dimensions, meta.tombstones);
    } catch (error) {
      return `the index file cannot be read (${describeError(error)})`;
    }
    if (index.size === meta.count) return index;
    index.close();
    return `the index file holds ${index.size} items, its marker ${meta.count}`;
  }

  private async diffWithSqlite(): Promise<{ added: number; removed: number }> {
    if ((await this.source.count(this.db, this.identity)) === this.index.size) return { added: 0, removed: 0 };
    const stored = await this.source.labels(this.db, this.identity);
    const inSqlite = new Set(stored);
    const extra = this.index.labels().filter((label) => !inSqlite.has(label));
    this.index.remove(extra);
    const held = new Set(this.index.labels());
    const missing = await this.source.fetch(
      this.db,
      this.identity,
      stored.filter((label) => !held.has(label)),
    );
    this.index.add(missing);
    this.changes += 1;
    return { added: missing.length, removed: extra.length };
  }

  private async rebuildNow(): Promise<void> {
    const index = this.factory.create(this.identity.dimensions, await this.source.count(this.db, this.identity));
    try {
      for (let after = -1; ;) {
        const rows = await this.source.scan(this.db, this.identity, after, rebuildBatch);
        if (rows.length === 0) break;
        index.add(rows);
        after = rows[rows.length - 1].label;
      }
    } catch (error) {
      index.close();
      throw error;
    }
    this.replaceIndex(index, this.checkpoint);
    await this.checkpointNow();
  }

  private async checkpointNow(): Promise<void> {
    this.clearTimer();
    const journals = this.files.journals();
    const checkpoint = newCheckpointId();
    await this.files.commit((file) => this.index.save(file), {
      format: metaFormat,
      kind: this.files.kind,
      identity: this.identity,
      checkpoint,
      checkpointed_at: new Date().toISOString(),
      count: this.index.size,
      tombstones: this.index.tombstones(),
    });
    this.files.removeFiles(journals);
    this.checkpoint = checkpoint;
    this.pending = 0;
    this.lastCheckpointAt = Date.now();
  }

  private poll(): void {
    if (this.closed || this.polling || Date.now() - this.lastPoll < this.pollMs) return;
    this.lastPoll = Date.now();
    this.polling = true;
    this.refresh()
      .catch(this.onError)
      .finally(() => {
        this.polling = false;
      });
  }

  private async reload(): Promise<void> {
    const key = await this.files.markerKey();
    if (key === null || key === this.markerKey) return;
    const meta = await this.files.readMeta();
    if (meta && sameIdentity(meta.identity, this.identity) && meta.checkpoint !== this.checkpoint) {
      // A graph of another size is mid-checkpoint: leave the key unrecorded and look again next poll.
      if ((await this.files.indexBytes()) !== meta.bytes) return;
      this.replaceIndex(
        await this.factory.load(this.files.index, this.identity.dimensions, meta.tombstones),
        meta.checkpoint,
      );
    }
    this.markerKey = key;
  }

  private replaceIndex(index: VectorIndex, checkpoint: string | null): void {
    if (index !== this.index) this.index.close();
    this.index = index;
    this.checkpoint = checkpoint;
    this.changes += 1;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export function sameIdentity(a: EmbeddingIdentity, b: EmbeddingIdentity): boolean {
  return a.provider === b.provider && a.model === b.model && a.dimensions === b.dimensions;
}

function describe(identity: EmbeddingIdentity): string {
  return `${identity.provider}/${identity.model} (${identity.dimensions}-d)`;
}
