import { open } from 'node:fs/promises';
import { UnreadableFileError, type LoaderLimits } from './port.ts';

/** Reads at most `maxBytes` from the start of a file; `truncated` says the file is longer. */
export async function readUpTo(
  path: string,
  maxBytes: number,
): Promise<{ bytes: Buffer; truncated: boolean; size: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, Math.max(0, maxBytes));
    const bytes = Buffer.alloc(length);
    let offset = 0;
    while (offset < length) {
      const { bytesRead } = await handle.read(bytes, offset, length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return { bytes: offset < length ? bytes.subarray(0, offset) : bytes, truncated: size > length, size };
  } finally {
    await handle.close();
  }
}

export async function readHead(path: string, bytes: number): Promise<Buffer> {
  return (await readUpTo(path, bytes)).bytes;
}

/** Reads a whole file that a parser needs at once (PDF, archives), refusing one larger than `maxBytes`. */
export async function readWhole(path: string, maxBytes: number, what: string): Promise<Buffer> {
  const { bytes, truncated, size } = await readUpTo(path, maxBytes);
  if (truncated)
    throw new UnreadableFileError(`${what} is ${size} bytes, more than the ${maxBytes} bytes a loader may read`);
  return bytes;
}

/**
 * Bytes worth reading from a text-like file: enough for `maxTextChars` characters in any supported encoding
 * (at most 4 bytes each), plus a BOM.
 */
export function textByteBudget(limits: LoaderLimits): number {
  return limits.maxTextChars * 4 + 4;
}
