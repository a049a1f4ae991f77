import { decodeText } from './encoding.ts';
import type { LoaderInput } from './port.ts';
import { readUpTo, textByteBudget } from './read.ts';

export interface TextFile {
  text: string;
  encoding: string;
  /** The file held more than the text limit allows; its last line may be cut. */
  truncated: boolean;
}

/** Reads and decodes a text-based file, no more of it than the text limit can use. */
export async function readTextFile(
  input: LoaderInput,
  declared?: (head: Uint8Array) => string | null,
): Promise<TextFile> {
  input.signal.throwIfAborted();
  const { bytes, truncated } = await readUpTo(input.path, textByteBudget(input.limits));
  const { text, encoding } = decodeText(bytes, { partial: truncated, declared: declared?.(bytes) });
  return { text: text.replace(/\r\n?/g, '\n'), encoding, truncated };
}

/** Drops the last, possibly cut, line of a truncated file. */
export function completeLines(file: TextFile): string {
  if (!file.truncated) return file.text;
  const lastBreak = file.text.lastIndexOf('\n');
  return lastBreak < 0 ? file.text : file.text.slice(0, lastBreak);
}
