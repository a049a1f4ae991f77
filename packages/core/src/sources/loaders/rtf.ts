/** Rich Text Format: paragraphs and table rows as text, a section per heading, the `\info` title as the title. */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import type { LoadedDocument } from './port.ts';
import { readWhole } from './read.ts';
import { readRtf, type RtfParagraph } from './rtf-reader.ts';

const WHAT = 'The RTF file';

/** Paragraphs grouped under the heading before them (the heading opens its section). */
export function rtfSections(paragraphs: RtfParagraph[]): { section: string | null; text: string }[] {
  const sections: { section: string | null; lines: string[] }[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph.level !== null || sections.length === 0)
      sections.push({ section: paragraph.level !== null ? paragraph.text.replace(/\s+/g, ' ') : null, lines: [] });
    sections[sections.length - 1].lines.push(paragraph.text);
  }
  return sections.map(({ section, lines }) => ({ section, text: lines.join('\n') }));
}

export const rtfLoader = defineLoader('rtf', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, WHAT);
  const document = readRtf(bytes.toString('latin1'), input.limits.maxTextChars);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  for (const { section, text } of rtfSections(document.paragraphs)) if (!assembler.add(text, null, section)) break;
  const result = assembler.result();
  const firstHeading =
    document.paragraphs.find((paragraph) => paragraph.level === 1) ??
    document.paragraphs.find((paragraph) => paragraph.level !== null);
  return {
    ...result,
    warnings:
      document.truncated && result.warnings.length === 0 ? ['text past the limit was skipped'] : result.warnings,
    format: 'rtf',
    kind: 'prose',
    title: document.title ?? firstHeading?.text.replace(/\s+/g, ' ') ?? null,
    metadata: { author: document.author },
  };
});
