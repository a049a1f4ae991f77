import { readHead } from './read.ts';
import { SNIFF_BYTES, sniffMediaType } from './sniff.ts';
import type { LoaderFormat } from './port.ts';

/** The type of a stored file from its first bytes (and its name for text formats), exactly as the loaders decide it. */
export async function sniffFile(
  file: string,
  filename: string,
): Promise<{ mediaType: string; format: LoaderFormat } | null> {
  return sniffMediaType(await readHead(file, SNIFF_BYTES), filename);
}
