import type { LoaderFormat } from './port.ts';
import { sniffFile } from './sniff-file.ts';

/**
 * A file's type as its bytes (not its name) tell it, when it is one Rhizome reads and the upload
 * allowlist (`batching.allowed_content_types`, `*` for any) takes; else the reason it is refused,
 * naming the file.
 */
export async function allowedType(
  file: string,
  filename: string,
  allowed: string[],
): Promise<{ mediaType: string; format: LoaderFormat } | { refused: string }> {
  const sniffed = await sniffFile(file, filename);
  if (!sniffed) return { refused: `'${filename}' is not a file type Rhizome can read` };
  if (!allowed.includes('*') && !allowed.includes(sniffed.mediaType))
    return { refused: `'${filename}' is ${sniffed.mediaType}, which batching.allowed_content_types does not allow` };
  return sniffed;
}
