/** PowerPoint: one span per slide in presentation order, page = slide number, section = the slide title. */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { coreProperties, mainPart, readRelationships, relationshipId } from './ooxml.ts';
import { UnreadableFileError, type LoadedDocument } from './port.ts';
import { readWhole } from './read.ts';
import { localName, scanXml } from './xml-scan.ts';
import { openArchive, type BoundedArchive } from './zip-bounds.ts';

const WHAT = 'The PPTX file';
const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);

/** Paragraphs of every text body (shapes, tables), and the text of the title placeholder. */
export function slideText(xml: string): { text: string; title: string | null } {
  const paragraphs: string[] = [];
  let title: string | null = null;
  const shapes: { isTitle: boolean; paragraphs: string[] }[] = [];
  let paragraph: string | null = null;
  let inText = false;
  for (const token of scanXml(xml)) {
    if (token.type === 'text') {
      if (inText && paragraph !== null) paragraph += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'open') {
      if (name === 'sp' && !token.selfClosing) shapes.push({ isTitle: false, paragraphs: [] });
      else if (name === 'ph' && shapes.length > 0 && TITLE_PLACEHOLDERS.has(token.attrs.type ?? ''))
        shapes[shapes.length - 1].isTitle = true;
      else if (name === 'p' && !token.selfClosing) paragraph = '';
      else if (name === 't' && !token.selfClosing) inText = true;
      else if (name === 'br' && paragraph !== null) paragraph += '\n';
      continue;
    }
    if (name === 't') inText = false;
    else if (name === 'p' && paragraph !== null) {
      const text = paragraph.replace(/[^\S\n]+/g, ' ').trim();
      if (text) {
        paragraphs.push(text);
        shapes[shapes.length - 1]?.paragraphs.push(text);
      }
      paragraph = null;
    } else if (name === 'sp') {
      const shape = shapes.pop();
      if (shape?.isTitle && title === null && shape.paragraphs.length > 0) title = shape.paragraphs.join(' ');
    }
  }
  return { text: paragraphs.join('\n'), title };
}

/** Slide parts in the order of the presentation's slide list, else by their file number. */
async function slideParts(archive: BoundedArchive, presentationPart: string): Promise<string[]> {
  const relationships = await readRelationships(archive, presentationPart);
  const presentation = (await archive.readText(presentationPart)) ?? '';
  const ordered: string[] = [];
  for (const token of scanXml(presentation)) {
    if (token.type !== 'open' || localName(token.name) !== 'sldId') continue;
    const relationship = relationships.get(relationshipId(token.attrs) ?? '');
    if (relationship?.type === 'slide') ordered.push(relationship.target);
  }
  if (ordered.length > 0) return ordered;
  const number = (name: string): number => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return archive.names
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => number(a) - number(b));
}

export const pptxLoader = defineLoader('pptx', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, WHAT);
  const archive = await openArchive(bytes, input.limits, WHAT);
  const slides = await slideParts(archive, await mainPart(archive, 'ppt/presentation.xml', WHAT));
  if (slides.length === 0) throw new UnreadableFileError(`${WHAT} has no slides`);

  const assembler = new TextAssembler(input.limits.maxTextChars);
  const warnings: string[] = [];
  for (const [index, part] of slides.entries()) {
    input.signal.throwIfAborted();
    const xml = await archive.readText(part);
    if (xml === null) {
      warnings.push(`slide ${index + 1}: part ${part} is missing`);
      continue;
    }
    const { text, title } = slideText(xml);
    if (!assembler.add(text, index + 1, title)) break;
  }
  const properties = await coreProperties(archive);
  const result = assembler.result();
  return {
    ...result,
    warnings: [...warnings, ...result.warnings],
    format: 'pptx',
    kind: 'prose',
    title: properties.title,
    metadata: { slideCount: slides.length, author: properties.author },
  };
});
