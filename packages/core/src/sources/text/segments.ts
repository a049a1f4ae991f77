/**
 * Where a large text is cut into segments that are normalised and chunked one after another, so indexing
 * can store and embed the first passages while the rest is still being prepared.
 *
 * A cut is made only right after a paragraph break ("\n\n") and before a printable ASCII character or a
 * letter. There every local normalisation pass (mojibake, control characters, NFC, spaces, line joins,
 * blank lines) gives the same result on the two segments as on the whole text, provided the segment
 * before the cut keeps its trailing paragraph break (`continues`) and tells the next whether it ends
 * inside a code fence (`fenced`). Two things are per segment by design: running headers and footers are
 * recognised within a segment (one holds hundreds of pages), and no chunk spans a cut (a paragraph break,
 * where chunks often end anyway).
 */

/** Characters of original text per segment: big enough for per-segment header detection, small enough to start indexing early. */
export const segmentChars = 1 << 20;

/** A character that opens a segment: no normalisation pass removes it, turns it into a break or joins it to what precedes it. */
const opensSegment = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code < 0x80 ? code > 0x20 && code < 0x7f : /\p{L}/u.test(text[at]);
};

/** The start offset of each segment of `text` (the first is 0); one segment when the text is not larger than `size`. */
export function segmentStarts(text: string, size = segmentChars): number[] {
  const starts = [0];
  for (let cut = paragraphCut(text, size); cut >= 0; cut = paragraphCut(text, cut + size)) starts.push(cut);
  return starts;
}

/** The first position at or after `from` that follows "\n\n" and opens a segment; -1 when none. */
function paragraphCut(text: string, from: number): number {
  for (let at = text.indexOf('\n\n', Math.max(0, from - 2)); at >= 0; at = text.indexOf('\n\n', at + 1)) {
    const cut = at + 2;
    if (cut < text.length && opensSegment(text, cut)) return cut;
  }
  return -1;
}

/** Consecutive segments read as one text, without joining them into one string. */
export class JoinedText {
  /** Where each segment starts in the joined text. */
  private readonly starts: number[] = [];
  readonly length: number;

  constructor(private readonly segments: readonly string[]) {
    let at = 0;
    for (const segment of segments) {
      this.starts.push(at);
      at += segment.length;
    }
    this.length = at;
  }

  slice(start: number, end: number): string {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (from >= to) return '';
    const parts: string[] = [];
    for (let index = this.segmentAt(from); index < this.segments.length && this.starts[index] < to; index++) {
      const offset = this.starts[index];
      parts.push(this.segments[index].slice(Math.max(0, from - offset), to - offset));
    }
    return parts.join('');
  }

  private segmentAt(position: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
