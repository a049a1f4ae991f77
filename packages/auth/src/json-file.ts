import fs from 'node:fs';
import path from 'node:path';

/** Writes JSON atomically (temp file + rename) so readers never see a half-written file. */
export function writeJsonAtomic(file: string, value: unknown, mode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode });
    fs.renameSync(temp, file);
  } catch (error) {
    // A full disk leaves a half-written temp file; the old file stays as it was.
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Caches a parsed JSON file and re-reads it only when its identity changes (inode, size, mtime).
 * One stat per call keeps every process current without a reload signal: an atomic rename
 * always changes the inode.
 */
export class WatchedJsonFile<T> {
  private stamp = '';
  private value: T | undefined;

  constructor(
    readonly file: string,
    private readonly parse: (raw: unknown) => T,
  ) {}

  /** The current content, or undefined when the file does not exist. */
  read(): T | undefined {
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    if (!stat) {
      this.stamp = '';
      this.value = undefined;
      return undefined;
    }
    const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (stamp !== this.stamp) {
      this.value = this.parse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      this.stamp = stamp;
    }
    return this.value;
  }
}
