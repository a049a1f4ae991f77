/** Joining hard-wrapped lines inside paragraphs and undoing line-end hyphenation. */
import type { Edit } from './offset-map.ts';
import { Lines } from './lines.ts';

const FENCE = /^\s*(?:```|~~~)/;
/** Lines that start a block of their own and must never be glued to the line before. */
const BLOCK_START = /^\s*(?:#|[-*+•]\s|\d+[.)]\s|\||>|```|~~~|(?:CHAPTER|PART|BOOK)\b)/;
const BLOCK_START_FIRST = new Set([...'#-*+•0123456789|>`~CPB'].map((c) => c.charCodeAt(0)));
const FENCE_FIRST = new Set([...'`~'].map((c) => c.charCodeAt(0)));
const HASH = '#'.charCodeAt(0);
const MIN_WRAPPED_LINE = 50;
/** A line ending on one of these words stops mid-sentence whatever the next line starts with. */
const OPEN_ENDING =
  /\b(?:a|an|the|and|or|but|nor|of|to|in|on|at|by|for|with|from|into|as|than|that|which|who|whose|is|are|was|were)$/i;
/**
 * The end-anchored patterns below are tested on a line's last characters only, as the engine would
 * otherwise try them at every position of a long line: longer than their longest match (five letters
 * of OPEN_ENDING) plus the character before it that `\b` looks at.
 */
const TAIL = 8;

function isFence(lines: Lines, line: number): boolean {
  return FENCE_FIRST.has(lines.firstCode(line)) && FENCE.test(lines.lineText(line));
}

function startsBlock(lines: Lines, line: number): boolean {
  return BLOCK_START_FIRST.has(lines.firstCode(line)) && BLOCK_START.test(lines.lineText(line));
}

/** Whether lines are inside a fenced code block: where a text starts, and (once joined) where it ends. */
export interface FenceState {
  fenced: boolean;
}

/** Joins of `text`'s wrapped lines; `fence` says whether it starts inside a code fence and is left saying whether it ends inside one. */
export function lineJoinEdits(text: string, fence: FenceState = { fenced: false }): Edit[] {
  const lines = new Lines(text);
  const edits: Edit[] = [];
  let fenced = fence.fenced;
  for (let i = 0; i + 1 < lines.count; i++) {
    if (isFence(lines, i)) fenced = !fenced;
    const next = i + 1;
    if (fenced || lines.isBlank(i) || lines.isBlank(next) || startsBlock(lines, next) || lines.firstCode(i) === HASH)
      continue;
    const nextContent = lines.contentStart(next);
    const following = text.charAt(nextContent);
    const lower = /\p{Ll}/u.test(following);
    const end = lines.tail(i, TAIL);
    if (/\p{L}-$/u.test(end) && lower) {
      edits.push({ start: lines.end(i) - 1, end: nextContent, text: '' });
    } else if (
      /[,;]$/.test(end) ||
      OPEN_ENDING.test(end) ||
      (/[\p{Ll}\p{N}]$/u.test(end) && lower) ||
      (lines.end(i) - lines.start(i) >= MIN_WRAPPED_LINE && /\p{Ll}$/u.test(end) && /[\p{Lu}\p{N}]/u.test(following))
    ) {
      edits.push({ start: lines.end(i), end: nextContent, text: ' ' });
    }
  }
  fence.fenced = fenced;
  return edits;
}
