/**
 * Links a document makes to other documents, read from its original text: Markdown links
 * (`[text](other.md)`, reference definitions `[label]: other.md`) and wiki links (`[[Other page]]`,
 * `[[Other page|shown text]]`) in Markdown and plain text, anchors (`<a href="other.html">`) in HTML.
 * Images, code and comments link nothing.
 */
import type { LoaderFormat } from '../loaders/port.ts';

export type LinkSyntax = 'markdown' | 'wiki' | 'html';

export interface FoundLink {
  syntax: LinkSyntax;
  /** The target as written. */
  target: string;
  /** The text the link is shown as (a reference definition's label), where the linking passage is looked for. */
  anchor: string;
}

/** The most links read from one document. */
export const MAX_LINKS = 2_000;

const INLINE =
  /(!?)\[((?:[^[\]\\\n]|\\.){0,300})\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;
const REFERENCE = /^ {0,3}\[([^\]\n]{1,200})\]:[ \t]*(<[^>\n]*>|\S+)/gm;
const WIKI = /\[\[([^[\]|\n]{1,200})(?:\|([^[\]\n]{0,200}))?\]\]/g;
const ANCHOR = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))[^>]*>([\s\S]{0,2000}?)<\/a\s*>/gi;

/** Markdown without its fenced code blocks and code spans, where nothing links. */
function withoutCode(text: string): string {
  return text
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML text with its tags dropped, character references decoded and spaces collapsed. */
function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi, (whole, decimal?: string, hex?: string, name?: string) => {
      if (decimal) return String.fromCodePoint(Number(decimal));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return ENTITIES[name!.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function markdownLinks(text: string): FoundLink[] {
  const prose = withoutCode(text);
  const links: (FoundLink & { at: number })[] = [];
  for (const match of prose.matchAll(INLINE))
    if (!match[1] && match[3])
      links.push({ syntax: 'markdown', target: match[3], anchor: match[2].trim(), at: match.index });
  for (const match of prose.matchAll(REFERENCE))
    links.push({ syntax: 'markdown', target: match[2], anchor: match[1].trim(), at: match.index });
  for (const match of prose.matchAll(WIKI)) {
    const anchor = (match[2] || match[1].split('#')[0]).trim();
    links.push({ syntax: 'wiki', target: match[1].trim(), anchor, at: match.index });
  }
  return links.sort((a, b) => a.at - b.at).map(({ syntax, target, anchor }) => ({ syntax, target, anchor }));
}

function htmlAnchors(html: string): FoundLink[] {
  const page = html.replace(/<!--[\s\S]*?-->|<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '');
  const links: FoundLink[] = [];
  for (const match of page.matchAll(ANCHOR)) {
    const target = htmlText(match[1] ?? match[2] ?? match[3] ?? '');
    if (target) links.push({ syntax: 'html', target, anchor: htmlText(match[4]) });
  }
  return links;
}

/** The links `text`, the original of a document in `format`, makes, in the order written (at most `MAX_LINKS`). */
export function findLinks(text: string, format: LoaderFormat): FoundLink[] {
  const links =
    format === 'html' ? htmlAnchors(text) : format === 'markdown' || format === 'text' ? markdownLinks(text) : [];
  return links.slice(0, MAX_LINKS);
}
