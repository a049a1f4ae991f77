/**
 * Locating a chunk of normalised text in the original loader text:
 * exact, then whitespace-insensitive, then anchored on the first and last 32 characters, then an
 * approximate alignment scoring at least 0.8. Every stage runs in a window around the hint first;
 * the whole text is searched only when the window has nothing, and the alignment only ever runs
 * in bounded windows (around the hint and around exact seed hits).
 */

export type CitationStage = 'exact' | 'whitespace' | 'anchors' | 'alignment';

export type CitationLocation =
  | { start: number; end: number; match: 'exact' | 'fuzzy'; stage: CitationStage }
  | { start: null; end: null; match: 'none'; stage: null };

const ANCHOR_LENGTH = 32;
const MIN_ALIGNMENT_SCORE = 0.8;
const SEED_LENGTH = 24;
const MAX_ALIGNMENT_WINDOWS = 6;

interface Scope {
  text: string;
  /** Offset of `text` in the original. */
  offset: number;
}

const isSpace = (code: number) =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  code === 0xa0 ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x3000 ||
  (code >= 0x2000 && code <= 0x200a);

/** End of `needle` matched at `at` with any whitespace run standing for any other, or -1. */
function looseMatchEnd(haystack: string, at: number, needle: string): number {
  let h = at;
  for (let n = 0; n < needle.length;) {
    if (isSpace(needle.charCodeAt(n))) {
      if (h >= haystack.length || !isSpace(haystack.charCodeAt(h))) return -1;
      while (n < needle.length && isSpace(needle.charCodeAt(n))) n++;
      while (h < haystack.length && isSpace(haystack.charCodeAt(h))) h++;
    } else if (needle.charCodeAt(n++) !== haystack.charCodeAt(h++)) {
      return -1;
    }
  }
  return h;
}

/** First whitespace-insensitive occurrence of `needle` in the scope at or after `from`. */
function findLoose(scope: Scope, needle: string, from = 0): { start: number; end: number } | null {
  const trimmed = needle.trim();
  if (!trimmed) return null;
  const firstWord = trimmed.split(/\s/, 1)[0];
  for (let at = scope.text.indexOf(firstWord, from); at >= 0; at = scope.text.indexOf(firstWord, at + 1)) {
    const end = looseMatchEnd(scope.text, at, trimmed);
    if (end >= 0) return { start: scope.offset + at, end: scope.offset + end };
  }
  return null;
}

function findExact(scope: Scope, chunk: string): CitationLocation | null {
  const at = scope.text.indexOf(chunk);
  return at < 0
    ? null
    : { start: scope.offset + at, end: scope.offset + at + chunk.length, match: 'exact', stage: 'exact' };
}

function findWhitespaceInsensitive(scope: Scope, chunk: string): CitationLocation | null {
  const found = findLoose(scope, chunk);
  return found && { ...found, match: 'fuzzy', stage: 'whitespace' };
}

function findByAnchors(scope: Scope, chunk: string): CitationLocation | null {
  if (chunk.length < ANCHOR_LENGTH * 2) return null;
  const head = findLoose(scope, chunk.slice(0, ANCHOR_LENGTH));
  if (!head) return null;
  const tail = findLoose(scope, chunk.slice(-ANCHOR_LENGTH), head.end - scope.offset);
  if (!tail) return null;
  const length = tail.end - head.start;
  // Anchors further apart than the chunk could plausibly have stretched belong to different passages.
  if (length < chunk.length / 2 || length > chunk.length * 2) return null;
  return { start: head.start, end: tail.end, match: 'fuzzy', stage: 'anchors' };
}

const WORD_BITS = 32;
const HIGH_BIT = 1 << 31;

/**
 * Edit distance between `pattern` and the text up to each position (Myers' bit-vector algorithm in
 * 32-bit blocks, Hyyrö 2003): `result[j]` is the cost of the best alignment ending at `j`. Anchored,
 * the alignment starts at the text's first character; otherwise anywhere.
 */
function distances(pattern: string, text: string, anchored: boolean): Int32Array {
  const blocks = Math.ceil(pattern.length / WORD_BITS);
  // Each distinct pattern character gets a row of bit masks (row 0: characters the pattern lacks).
  const rows = new Map<number, number>();
  for (let i = 0; i < pattern.length; i++)
    if (!rows.has(pattern.charCodeAt(i))) rows.set(pattern.charCodeAt(i), rows.size + 1);
  const peq = new Int32Array((rows.size + 1) * blocks);
  for (let i = 0; i < pattern.length; i++) peq[rows.get(pattern.charCodeAt(i))! * blocks + (i >> 5)] |= 1 << (i & 31);
  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const lastBlock = blocks - 1;
  const lastBit = 1 << ((pattern.length - 1) & 31);
  const result = new Int32Array(text.length + 1);
  let score = pattern.length;
  result[0] = score;
  for (let j = 0; j < text.length; j++) {
    const row = (rows.get(text.charCodeAt(j)) ?? 0) * blocks;
    let carry = anchored ? 1 : 0;
    for (let b = 0; b < blocks; b++) {
      const p = pv[b];
      const m = mv[b];
      let eq = peq[row + b];
      const xv = eq | m;
      if (carry < 0) eq |= 1;
      const xh = ((((eq & p) + p) | 0) ^ p) | eq;
      let ph = m | ~(xh | p);
      let mh = p & xh;
      const high = b === lastBlock ? lastBit : HIGH_BIT;
      const out = (ph & high) !== 0 ? 1 : (mh & high) !== 0 ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (carry < 0) mh |= 1;
      else if (carry > 0) ph |= 1;
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      carry = out;
    }
    score += carry;
    result[j + 1] = score;
  }
  return result;
}

const reversed = (value: string) => value.split('').reverse().join('');

function firstMinimum(values: Int32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] < values[best]) best = i;
  return best;
}

/** Best approximate occurrence of `pattern` in `text`, scored 1 - edit distance / pattern length. */
function align(pattern: string, text: string): { start: number; end: number; score: number } {
  const forward = distances(pattern, text, false);
  const end = firstMinimum(forward);
  // Running the reversed pattern backwards from the end, anchored there, finds where the match starts.
  const backward = distances(reversed(pattern), reversed(text.slice(0, end)), true);
  return { start: end - firstMinimum(backward), end, score: 1 - forward[end] / pattern.length };
}

/** Where the chunk would start if one of its seed substrings is where it is in the original. */
function seedCandidates(scope: Scope, chunk: string): number[] {
  const candidates: number[] = [];
  const step = Math.max(1, Math.floor((chunk.length - SEED_LENGTH) / 4));
  for (let at = 0; at + SEED_LENGTH <= chunk.length; at += step) {
    const found = scope.text.indexOf(chunk.slice(at, at + SEED_LENGTH));
    if (found >= 0) candidates.push(scope.offset + found - at);
  }
  return candidates;
}

/** Aligns the chunk in a window around the hint, then around seed hits in the scope. */
function findByAlignment(
  scope: Scope,
  original: string,
  chunk: string,
  hint: number | undefined,
): CitationLocation | null {
  const m = chunk.length;
  const tried: number[] = [];
  const tryAt = (candidate: number): CitationLocation | null => {
    if (tried.length >= MAX_ALIGNMENT_WINDOWS || tried.some((previous) => Math.abs(previous - candidate) <= m / 4))
      return null;
    tried.push(candidate);
    const from = Math.max(0, candidate - Math.ceil(m / 4));
    const to = Math.min(original.length, candidate + Math.ceil(m * 1.5));
    if (to <= from) return null;
    const found = align(chunk, original.slice(from, to));
    return found.score >= MIN_ALIGNMENT_SCORE
      ? { start: from + found.start, end: from + found.end, match: 'fuzzy', stage: 'alignment' }
      : null;
  };
  const atHint = hint === undefined ? null : tryAt(hint);
  if (atHint) return atHint;
  for (const candidate of seedCandidates(scope, chunk)) {
    const found = tryAt(candidate);
    if (found) return found;
  }
  return null;
}

function locateIn(scope: Scope, original: string, chunk: string, hint: number | undefined): CitationLocation | null {
  return (
    findExact(scope, chunk) ??
    findWhitespaceInsensitive(scope, chunk) ??
    findByAnchors(scope, chunk) ??
    findByAlignment(scope, original, chunk, hint)
  );
}

/**
 * Finds `chunkText` in `original`. `hint` is where it is expected to start (from the normalisation
 * offset map); without one every stage searches the whole text.
 */
export function locateInOriginal(chunkText: string, original: string, hint?: number): CitationLocation {
  const chunk = chunkText.trim();
  const none: CitationLocation = { start: null, end: null, match: 'none', stage: null };
  if (!chunk) return none;
  const whole: Scope = { text: original, offset: 0 };
  if (hint === undefined) return locateIn(whole, original, chunk, undefined) ?? none;
  const from = Math.max(0, hint - chunk.length * 2);
  const to = Math.min(original.length, hint + chunk.length * 3);
  const window: Scope = { text: original.slice(from, to), offset: from };
  return locateIn(window, original, chunk, hint) ?? locateIn(whole, original, chunk, undefined) ?? none;
}
