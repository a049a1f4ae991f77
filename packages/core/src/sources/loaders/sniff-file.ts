import fs from 'node:fs';
import { sniffMediaType } from './sniff.ts';
import type { LoaderFormat } from './port.ts';

const headBytes = 8192;

/** The type of a stored file from its first bytes (and its name for text formats), reading nothing more. */
export async function sniffFile(file: string, filename: string): Promise<{ mediaType: string; format: LoaderFormat } | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(headBytes);
    const { bytesRead } = await handle.read(head, 0, headBytes, 0);
    return sniffMediaType(head.subarray(0, bytesRead), filename);
  } finally {
    await handle.close();
  }
}
