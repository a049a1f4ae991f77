/**
 * HTML: scripts, navigation and page headers/footers go first; then Readability's main content, or the
 * whole remaining body when Readability finds little.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { TextAssembler } from './assemble.ts';
import { collapseWhitespace, domSections, type SectionText } from './dom-text.ts';
import { declaredCharset } from './encoding.ts';
import { defineLoader } from './formats.ts';
import type { LoadedDocument } from './port.ts';
import { readTextFile } from './text-file.ts';

// Not `form`: some sites wrap the whole page in one.
const NOISE = 'script, style, noscript, template, iframe, nav, aside, [role=navigation], [aria-hidden=true]';
/** Page headers and footers; those inside an article or main element belong to its content. */
const PAGE_FURNITURE = 'header, footer';
/** Past this many elements Readability is slow; the fallback handles such pages. */
const MAX_READABILITY_ELEMENTS = 50_000;
/** Readability wins unless it kept much less than the stripped page: then it probably picked a fragment. */
const MIN_READABLE_SHARE = 0.25;

function textLength(sections: SectionText[]): number {
  return sections.reduce((sum, section) => sum + section.text.length, 0);
}

function stripFurniture(document: Document): Document {
  for (const element of document.querySelectorAll(NOISE)) element.remove();
  for (const element of document.querySelectorAll(PAGE_FURNITURE))
    if (!element.parentElement?.closest('article, main')) element.remove();
  return document;
}

/** The page as a DOM; text without any markup is read as the body of an otherwise empty page. */
function parsePage(source: string): Document {
  const { document } = parseHTML(source);
  return document.documentElement ? document : parseHTML(`<!doctype html><html><body>${source}</body></html>`).document;
}

function readableSections(
  source: string,
): { sections: SectionText[]; byline: string | null; lang: string | null } | null {
  const document = stripFurniture(parsePage(source));
  try {
    const article = new Readability(document, { maxElemsToParse: MAX_READABILITY_ELEMENTS }).parse();
    if (!article?.content) return null;
    const { document: content } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    return { sections: domSections(content.body), byline: article.byline ?? null, lang: article.lang ?? null };
  } catch {
    return null;
  }
}

export const htmlLoader = defineLoader('html', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input, declaredCharset);
  const document = parsePage(file.text);
  const declared = collapseWhitespace(document.querySelector('title')?.textContent ?? '') || null;
  const lang = document.documentElement?.getAttribute('lang') || null;
  stripFurniture(document);
  const title = declared ?? (collapseWhitespace(document.querySelector('h1')?.textContent ?? '') || null);
  const fallback = domSections(document.body ?? document.documentElement);
  const readable = readableSections(file.text);
  const useReadable =
    readable !== null &&
    textLength(readable.sections) > 0 &&
    textLength(readable.sections) >= textLength(fallback) * MIN_READABLE_SHARE;
  const sections = useReadable ? readable.sections : fallback;

  const assembler = new TextAssembler(input.limits.maxTextChars);
  for (const section of sections) if (!assembler.add(section.text, null, section.section)) break;
  return {
    ...assembler.result(),
    format: 'html',
    kind: 'prose',
    title,
    metadata: {
      encoding: file.encoding,
      extractor: useReadable ? 'readability' : 'fallback',
      byline: readable?.byline ?? null,
      lang: readable?.lang ?? lang,
    },
  };
});
