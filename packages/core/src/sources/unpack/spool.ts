import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A member written out to a file of its own, hashed on the way, as an upload is. */
export interface SpooledFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Writes `content` to a new file in `dir`, telling `counted` of every chunk (so a bound can stop it
 * mid-way by throwing); the file is removed when writing fails.
 */
export async function spool(
  dir: string,
  content: Buffer | Readable,
  counted: (bytes: number, total: number) => void,
): Promise<SpooledFile> {
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, `${randomBytes(12).toString('hex')}.member`);
  const hash = createHash('sha256');
  let size = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      try {
        counted(chunk.length, size);
      } catch (error) {
        done(error as Error);
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
  try {
    await pipeline(source, counting, fs.createWriteStream(target));
  } catch (error) {
    await fs.promises.rm(target, { force: true });
    throw error;
  }
  return { path: target, size, sha256: hash.digest('hex') };
}
