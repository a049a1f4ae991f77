import type { LoaderFormat } from './port.ts';
import { readHead } from './read.ts';
import { legacyRefusal, SNIFF_BYTES, sniffMediaType } from './sniff.ts';

/**
 * A file's type as its bytes (not its name) tell it, when it is one Rhizome reads and the upload
 * allowlist (`batching.allowed_content_types`, `*` for any) takes; else the reason it is refused,
 * naming the file (and, for a legacy Office format, what to save it as).
 */
export async function allowedType(
  file: string,
  filename: string,
  allowed: string[],
): Promise<{ mediaType: string; format: LoaderFormat } | { refused: string }> {
  const head = await readHead(file, SNIFF_BYTES);
  const sniffed = sniffMediaType(head, filename);
  if (!sniffed)
    return { refused: legacyRefusal(head, filename) ?? `'${filename}' is not a file type Rhizome can read` };
  if (!allowed.includes('*') && !allowed.includes(sniffed.mediaType))
    return { refused: `'${filename}' is ${sniffed.mediaType}, which batching.allowed_content_types does not allow` };
  return sniffed;
}
