import type { LoadedDocument, TextSpan } from './port.ts';

const SEPARATOR = '\n\n';

function truncationWarning(maxChars: number): string {
  return `text truncated at the limit of ${maxChars} characters`;
}

/** Where to cut `text` to at most `max` characters without splitting a surrogate pair. */
function cutAt(text: string, max: number): number {
  if (max <= 0 || max >= text.length) return Math.max(0, Math.min(max, text.length));
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

/**
 * Joins the text of pages, slides, sheets or sections with blank lines, records a span for each, and stops
 * at the character limit (`add` then returns false so a loader can stop reading).
 */
export class TextAssembler {
  private readonly pieces: string[] = [];
  private readonly spans: TextSpan[] = [];
  private length = 0;
  private truncated = false;

  constructor(private readonly maxChars: number) {}

  get full(): boolean {
    return this.truncated;
  }

  add(text: string, page: number | null = null, section: string | null = null): boolean {
    if (this.truncated) return false;
    const body = text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
    if (!body) return true;
    const separator = this.length === 0 ? '' : SEPARATOR;
    const room = this.maxChars - this.length - separator.length;
    const keep = cutAt(body, room);
    if (keep <= 0) {
      this.truncated = true;
      return false;
    }
    const start = this.length + separator.length;
    this.pieces.push(separator, body.slice(0, keep));
    this.spans.push({ start, end: start + keep, page, section });
    this.length = start + keep;
    if (keep < body.length) this.truncated = true;
    return !this.truncated;
  }

  result(): Pick<LoadedDocument, 'text' | 'spans' | 'warnings'> {
    return {
      text: this.pieces.join(''),
      spans: [...this.spans],
      warnings: this.truncated ? [truncationWarning(this.maxChars)] : [],
    };
  }
}

/** Enforces the character limit on a finished document, cutting its spans to match. */
export function truncateDocument(doc: LoadedDocument, maxChars: number): LoadedDocument {
  if (doc.text.length <= maxChars) return doc;
  const end = cutAt(doc.text, maxChars);
  const warning = truncationWarning(maxChars);
  return {
    ...doc,
    text: doc.text.slice(0, end),
    spans: doc.spans.filter((span) => span.start < end).map((span) => ({ ...span, end: Math.min(span.end, end) })),
    warnings: doc.warnings.includes(warning) ? doc.warnings : [...doc.warnings, warning],
  };
}
