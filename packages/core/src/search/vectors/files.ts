import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { EmbeddingIdentity } from '../../providers/index.ts';

/**
 * The files of one index under `<database>/vectors/`: `<kind>.hnsw` (the graph), `<kind>.meta.json`
 * (the checkpoint marker: which checkpoint, identity, live count, tombstones, the graph file's size) and
 * `<kind>.<checkpoint>.journal` (labels written since that checkpoint, uint32 little-endian).
 */

export type VectorKind = 'chunks' | 'nodes' | 'templates';
export const vectorKinds: readonly VectorKind[] = ['chunks', 'nodes', 'templates'];

export const metaFormat = 1;

export interface VectorMeta {
  format: typeof metaFormat;
  kind: VectorKind;
  identity: EmbeddingIdentity;
  checkpoint: string;
  checkpointed_at: string;
  count: number;
  /** Size of the graph file written with this marker: a mismatch means the two are not a pair. */
  bytes: number;
  tombstones: number[];
}

export class VectorFiles {
  readonly dir: string;

  constructor(
    databaseDir: string,
    readonly kind: VectorKind,
  ) {
    this.dir = path.join(databaseDir, 'vectors');
  }

  get index(): string {
    return path.join(this.dir, `${this.kind}.hnsw`);
  }
  get meta(): string {
    return path.join(this.dir, `${this.kind}.meta.json`);
  }
  journal(checkpoint: string): string {
    return path.join(this.dir, `${this.kind}.${checkpoint}.journal`);
  }

  /** The marker as it stands, or null when it is missing, unreadable or of another format. */
  async readMeta(): Promise<VectorMeta | null> {
    try {
      const meta = JSON.parse(await fsp.readFile(this.meta, 'utf8')) as VectorMeta;
      return meta.format === metaFormat && meta.kind === this.kind && Array.isArray(meta.tombstones) ? meta : null;
    } catch {
      return null;
    }
  }

  /** Changes whenever the marker is replaced (every checkpoint renames a new file in). */
  async markerKey(): Promise<string | null> {
    try {
      const stat = await fsp.stat(this.meta);
      return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    } catch {
      return null;
    }
  }

  async indexBytes(): Promise<number | null> {
    try {
      return (await fsp.stat(this.index)).size;
    } catch {
      return null;
    }
  }

  /**
   * Writes both files beside their final names, flushes them, then renames the graph and the marker in.
   * A crash between the two renames leaves the new graph beside the old marker: of another size, it is
   * treated as unusable; of the same size, it differs from the old graph only in labels the old
   * checkpoint's journal lists (the caller drops journals after this returns), which start-up re-applies.
   */
  async commit(save: (file: string) => Promise<void>, meta: Omit<VectorMeta, 'bytes'>): Promise<VectorMeta> {
    await fsp.mkdir(this.dir, { recursive: true });
    const indexTemp = `${this.index}.tmp`;
    const metaTemp = `${this.meta}.tmp`;
    await save(indexTemp);
    await flush(indexTemp);
    const committed: VectorMeta = { ...meta, bytes: (await fsp.stat(indexTemp)).size };
    await fsp.writeFile(metaTemp, JSON.stringify(committed));
    await flush(metaTemp);
    await fsp.rename(indexTemp, this.index);
    await fsp.rename(metaTemp, this.meta);
    return committed;
  }

  /** Synchronous so that a write is journaled before the call that made it returns. */
  appendJournal(checkpoint: string, labels: number[]): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const records = Buffer.alloc(labels.length * 4);
    labels.forEach((label, position) => records.writeUInt32LE(label, position * 4));
    fs.appendFileSync(this.journal(checkpoint), records);
  }

  /** Every journal of this kind, whichever checkpoint it follows (a crash can leave an older one). */
  journals(): string[] {
    if (!fs.existsSync(this.dir)) return [];
    const pattern = new RegExp(`^${this.kind}\\.[0-9a-f]+\\.journal$`);
    return fs
      .readdirSync(this.dir)
      .filter((name) => pattern.test(name))
      .map((name) => path.join(this.dir, name));
  }

  /** The distinct labels of these journals; a torn last record is ignored. */
  readJournals(files: string[]): number[] {
    const labels = new Set<number>();
    for (const file of files) {
      const records = fs.readFileSync(file);
      for (let offset = 0; offset + 4 <= records.byteLength; offset += 4) labels.add(records.readUInt32LE(offset));
    }
    return [...labels];
  }

  removeFiles(files: string[]): void {
    for (const file of files) fs.rmSync(file, { force: true });
  }
}

export function newCheckpointId(): string {
  return randomBytes(6).toString('hex');
}

async function flush(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
