/** Plain text (.txt, .log) and Markdown, whose headings become sections. */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import type { LoadedDocument } from './port.ts';
import { readTextFile } from './text-file.ts';

export const textLoader = defineLoader('text', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  assembler.add(file.text);
  return { ...assembler.result(), format: 'text', kind: 'prose', title: null, metadata: { encoding: file.encoding } };
});

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;

interface MarkdownSection {
  heading: string | null;
  lines: string[];
}

/** Splits Markdown at ATX (`# Title`) and setext (underlined) headings, ignoring fenced code. */
export function markdownSections(text: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [{ heading: null, lines: [] }];
  let fence: string | null = null;
  const start = (heading: string, lines: string[]): void => {
    sections.push({ heading: heading.trim() || null, lines });
  };
  for (const line of text.split('\n')) {
    const current = sections[sections.length - 1];
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = null;
      current.lines.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      current.lines.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      start(atx[1] ?? '', [line]);
      continue;
    }
    const previous = current.lines[current.lines.length - 1];
    const previousIsParagraph =
      previous !== undefined && previous.trim() !== '' && !/^ {0,3}(?:[-*+>]|\d+[.)])\s/.test(previous);
    const beforePrevious = current.lines[current.lines.length - 2];
    if (
      SETEXT.test(line) &&
      previousIsParagraph &&
      (beforePrevious === undefined || beforePrevious.trim() === '') &&
      !(current.heading && current.lines.length === 1)
    ) {
      current.lines.pop();
      start(previous, [previous, line]);
      continue;
    }
    current.lines.push(line);
  }
  return sections.filter((section) => section.lines.some((line) => line.trim() !== ''));
}

/** YAML front matter at the very start (`---` … `---`), split off so it does not read as a heading. */
function splitFrontMatter(text: string): { frontMatter: string | null; body: string } {
  const match = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  return match ? { frontMatter: match[1], body: text.slice(match[0].length) } : { frontMatter: null, body: text };
}

export const markdownLoader = defineLoader('markdown', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input);
  const { frontMatter, body } = splitFrontMatter(file.text);
  const sections = markdownSections(body);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  if (frontMatter) assembler.add(frontMatter);
  for (const section of sections) if (!assembler.add(section.lines.join('\n'), null, section.heading)) break;
  const frontTitle = frontMatter ? (/^title:\s*["']?(.+?)["']?\s*$/m.exec(frontMatter)?.[1] ?? null) : null;
  // The first heading, whatever its level: a level-1 heading further down is usually a chapter, not the document's name.
  const title = frontTitle ?? sections.find((section) => section.heading !== null)?.heading ?? null;
  return {
    ...assembler.result(),
    format: 'markdown',
    kind: 'prose',
    title,
    metadata: { encoding: file.encoding, sections: sections.length },
  };
});
