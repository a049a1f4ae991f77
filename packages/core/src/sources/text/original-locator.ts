import { locateInOriginal } from './citation-offsets.ts';
import type { Chunk } from './chunk.ts';
import type { OffsetMap } from './offset-map.ts';

export interface OriginalLocation {
  start: number | null;
  end: number | null;
  match: 'exact' | 'fuzzy' | 'none';
}

/**
 * Where each chunk of the normalised text lies in the loader's original text (citations point there), for
 * chunks taken in order: the normaliser's offset map gives the range directly; the search cascade is only the fallback.
 */
export function originalLocator(original: string, offsetMap: OffsetMap): (chunk: Chunk) => OriginalLocation {
  const startOf = offsetMap.originalCursor('start');
  const endOf = offsetMap.originalCursor('end');
  let hint = 0;
  return (chunk) => {
    const start = startOf(chunk.start);
    const end = endOf(chunk.end);
    if (end > start) {
      hint = start;
      return { start, end, match: original.slice(start, end) === chunk.content ? 'exact' : 'fuzzy' };
    }
    const found = locateInOriginal(chunk.content, original, hint);
    if (found.start !== null) hint = found.start;
    return found;
  };
}
