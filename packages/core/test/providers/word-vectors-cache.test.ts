import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileLock } from '../../src/runtime/file-lock.ts';
import { BuiltinEmbeddingAdapter } from '../../src/providers/embeddings/builtin/adapter.ts';
import { ThreadedBuiltinEmbeddingAdapter } from '../../src/providers/embeddings/builtin/threaded.ts';
import { binaryPath, openWordVectors } from '../../src/providers/embeddings/builtin/word-vectors.ts';
import { sleep } from '../../../../tests/support/wait.ts';

const signal = new AbortController().signal;
const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'word-vectors-cache-'));
  tempDirs.push(dir);
  return dir;
}

describe('word-vector cache shared by several converters', () => {
  // Two converters at once on a fresh cache, as `pnpm bench:ingest` runs them: the server's embedder thread
  // and the raw embedder on the main thread (one pid, two module instances).
  const fresh = tempDir();
  let vectors: [Float32Array, Float32Array];

  beforeAll(async () => {
    const threaded = new ThreadedBuiltinEmbeddingAdapter({ cacheDir: fresh });
    const local = new BuiltinEmbeddingAdapter({ cacheDir: fresh });
    const [[inThread], [onMain]] = await Promise.all([
      threaded.embed(['The cat sat on the mat'], signal),
      local.embed(['The cat sat on the mat'], signal),
    ]);
    vectors = [inThread, onMain];
  }, 120_000);

  it('gives both the same vectors and leaves one binary, no temporary file and no lock', () => {
    // The thread's vectors carry the word part first; the corpus part after it is filled per database later.
    const [inThread, onMain] = vectors;
    expect(inThread.subarray(0, onMain.length)).toEqual(onMain);
    expect(inThread.subarray(onMain.length).every((value) => value === 0)).toBe(true);
    expect(fs.readdirSync(fresh)).toEqual([path.basename(binaryPath(fresh))]);
  });

  it('waits for the converter holding the lock and loads its file instead of converting again', async () => {
    const waiting = tempDir();
    const lock = await FileLock.acquire(`${binaryPath(waiting)}.lock`);
    if (!(lock instanceof FileLock)) throw new Error('lock held');
    let settled = false;
    const opened = openWordVectors(waiting).finally(() => (settled = true));
    await sleep(1_500);
    expect(settled).toBe(false);
    expect(fs.readdirSync(waiting)).toEqual([path.basename(lock.file)]);
    // The lock holder's conversion lands, then it lets go.
    fs.copyFileSync(binaryPath(fresh), binaryPath(waiting));
    const written = fs.statSync(binaryPath(waiting)).ino;
    await lock.release();
    const words = await opened;
    expect(words.indexOf('cat')).toBeGreaterThanOrEqual(0);
    expect(fs.statSync(binaryPath(waiting)).ino).toBe(written);
    expect(fs.readdirSync(waiting)).toEqual([path.basename(binaryPath(waiting))]);
  }, 60_000);

  it('takes over a lock left by a converter that died', async () => {
    const orphaned = tempDir();
    fs.writeFileSync(
      `${binaryPath(orphaned)}.lock`,
      JSON.stringify({ pid: 999_999_999, host: os.hostname(), token: '0-dead', since: new Date().toISOString() }),
    );
    fs.copyFileSync(binaryPath(fresh), binaryPath(orphaned));
    fs.appendFileSync(binaryPath(orphaned), 'damage');
    const words = await openWordVectors(orphaned);
    expect(words.indexOf('cat')).toBeGreaterThanOrEqual(0);
    expect(fs.readdirSync(orphaned)).toEqual([path.basename(binaryPath(orphaned))]);
  }, 60_000);
});
