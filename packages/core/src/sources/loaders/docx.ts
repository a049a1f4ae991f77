/** Word documents through mammoth's HTML (headings kept), after the archive is proven within bounds. */
import { parseHTML } from 'linkedom';
import { TextAssembler } from './assemble.ts';
import { collapseWhitespace, domSections } from './dom-text.ts';
import { defineLoader } from './formats.ts';
import { coreProperties, mainPart } from './ooxml.ts';
import { UnreadableFileError, type LoadedDocument } from './port.ts';
import { readWhole } from './read.ts';
import { openArchive } from './zip-bounds.ts';

const WHAT = 'The DOCX file';

export const docxLoader = defineLoader('docx', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, WHAT);
  const archive = await openArchive(bytes, input.limits, WHAT);
  await mainPart(archive, 'word/document.xml', WHAT);
  const properties = await coreProperties(archive);
  // mammoth inflates parts on its own, so every entry is inflated once under the count first.
  await archive.inflateAll();
  input.signal.throwIfAborted();

  const { default: mammoth } = await import('mammoth');
  let html: string;
  let messages: { type: string; message: string }[];
  try {
    ({ value: html, messages } = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
        externalFileAccess: false,
      },
    ));
  } catch (error) {
    throw new UnreadableFileError(`${WHAT} could not be read (${(error as Error).message})`);
  }

  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  for (const section of domSections(document.body)) if (!assembler.add(section.text, null, section.section)) break;
  const result = assembler.result();
  const errors = messages.filter((message) => message.type === 'error').map((message) => message.message);
  return {
    ...result,
    warnings: [...errors, ...result.warnings],
    format: 'docx',
    kind: 'prose',
    // mammoth renders the Heading 1 style as <h1>.
    title: properties.title ?? (collapseWhitespace(document.querySelector('h1')?.textContent ?? '') || null),
    metadata: { author: properties.author },
  };
});
