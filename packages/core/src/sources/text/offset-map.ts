/**
 * The offset map between a normalised text and the loader's original, and the edits that build it: every
 * normalisation step is a list of edits on the current text, composed into one map.
 */

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Which side of a removed or replaced stretch a position at its edge belongs to: a range's start or its end. */
export type Bias = 'start' | 'end';

/**
 * Map between the normalised and the original text, as segments that each either copy text verbatim
 * or replace it (an insertion or deletion is a replacement with one side empty). Segment i starts at
 * `normalized[i]` / `original[i]` and runs to the next segment's start.
 */
export class OffsetMap {
  constructor(
    readonly normalized: readonly number[],
    readonly original: readonly number[],
    readonly copied: readonly boolean[],
    readonly normalizedLength: number,
    readonly originalLength: number,
  ) {}

  static identity(length: number): OffsetMap {
    return new OffsetMap([0], [0], [true], length, length);
  }

  /** With `end` bias a position right after a deletion maps to before the deleted text, so a range end stays tight. */
  toOriginal(position: number, bias: Bias = 'start'): number {
    const at = clamp(position, this.normalizedLength);
    return this.projectToOriginal(lastAtOrBefore(this.normalized, target(at, bias)), at);
  }

  toNormalized(position: number, bias: Bias = 'start'): number {
    const at = clamp(position, this.originalLength);
    const i = lastAtOrBefore(this.original, target(at, bias));
    return project(this.original, this.normalized, this.copied, i, at, this.originalLength, this.normalizedLength);
  }

  /**
   * `toOriginal` for a caller whose positions mostly grow (one bias per cursor): it walks on from the
   * previous answer's segment, so a pass over the whole text costs one walk over the map, not a search per call.
   */
  originalCursor(bias: Bias = 'start'): (position: number) => number {
    const starts = this.normalized;
    let i = 0;
    return (position) => {
      const at = clamp(position, this.normalizedLength);
      const value = target(at, bias);
      if (value < starts[i]) i = lastAtOrBefore(starts, value);
      else while (i + 1 < starts.length && starts[i + 1] <= value) i++;
      return this.projectToOriginal(i, at);
    };
  }

  private projectToOriginal(segment: number, position: number): number {
    return project(
      this.normalized,
      this.original,
      this.copied,
      segment,
      position,
      this.normalizedLength,
      this.originalLength,
    );
  }
}

const clamp = (position: number, length: number) => Math.min(Math.max(position, 0), length);

/** The character a position is looked up by: the one after it (start bias) or before it (end bias). */
const target = (position: number, bias: Bias) => (bias === 'start' ? position : position - 1);

function project(
  from: readonly number[],
  to: readonly number[],
  copied: readonly boolean[],
  i: number,
  position: number,
  fromLength: number,
  toLength: number,
): number {
  if (copied[i]) return to[i] + (position - from[i]);
  const nextFrom = i + 1 < from.length ? from[i + 1] : fromLength;
  const nextTo = i + 1 < to.length ? to[i + 1] : toLength;
  return position >= nextFrom ? nextTo : Math.min(to[i] + (position - from[i]), nextTo);
}

function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Applies sorted, non-overlapping edits to `text` and composes their offsets with `map`. */
export function applyEdits(text: string, map: OffsetMap, edits: readonly Edit[]): { text: string; map: OffsetMap } {
  if (edits.length === 0) return { text, map };
  const normalized: number[] = [];
  const original: number[] = [];
  const copied: boolean[] = [];
  const emit = (n: number, o: number, copy: boolean) => {
    const last = normalized.length - 1;
    if (copy && last >= 0 && copied[last] && original[last] + (n - normalized[last]) === o) return;
    normalized.push(n);
    original.push(o);
    copied.push(copy);
  };
  const { normalized: oldN, original: oldO, copied: oldC } = map;
  // Every position looked up below is at or after the one before, so the cursor never searches.
  const toOriginal = map.originalCursor();
  let j = 0;
  let delta = 0;
  // Carries the old segments over the untouched range [from, to] of the current text.
  const carry = (from: number, to: number) => {
    for (; j < oldN.length; j++) {
      const start = oldN[j];
      const end = j + 1 < oldN.length ? oldN[j + 1] : map.normalizedLength;
      if (start > to) return;
      if (start === end) {
        // An empty segment (a deletion) at the range's edge stays; one inside an edit goes with it.
        if (start >= from) emit(start + delta, oldO[j], oldC[j]);
        continue;
      }
      if (start >= to) return;
      if (end <= from) continue;
      const at = Math.max(from, start);
      emit(at + delta, at === start ? oldO[j] : toOriginal(at), oldC[j]);
      if (end > to) return;
    }
  };
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    carry(cursor, edit.start);
    emit(edit.start + delta, toOriginal(edit.start), false);
    parts.push(text.slice(cursor, edit.start), edit.text);
    delta += edit.text.length - (edit.end - edit.start);
    cursor = edit.end;
  }
  carry(cursor, map.normalizedLength);
  parts.push(text.slice(cursor));
  const next = parts.join('');
  return { text: next, map: new OffsetMap(normalized, original, copied, next.length, map.originalLength) };
}
