/**
 * Word 97–2003 documents (.doc) through word-extractor, after the OLE container is proven sound (its
 * chains end inside the file): the body, then text boxes, footnotes and endnotes as sections of their own.
 * The title and author come from the summary properties. Older Word (6, 95) and password-protected files
 * are refused with what to do instead; so is an OLE file of another application named .doc.
 */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { CompoundFile } from './ole-compound.ts';
import { oleRefusals } from './ole-sniff.ts';
import { summaryProperties } from './ole-summary.ts';
import { UnreadableFileError, type LoadedDocument } from './port.ts';
import { readWhole } from './read.ts';

const WHAT = 'The DOC file';
const WORD_97_MAGIC = 0xa5ec;
const WORD_95_MAGIC = 0xa5dc;
const F_ENCRYPTED = 0x0100;
const F_WHICH_TABLE = 0x0200;
const SAVE_AS = 'save it as .docx (or PDF) in Word or LibreOffice and upload that';

/** Refuses what word-extractor cannot read, naming why. */
function checkWordDocument(file: CompoundFile, filename: string): void {
  const fib = file.stream('WordDocument');
  if (!fib) {
    const kind =
      file.streams.has('Workbook') || file.streams.has('Book')
        ? 'xls'
        : file.streams.has('PowerPoint Document')
          ? 'ppt'
          : 'unknown';
    throw new UnreadableFileError(`'${filename}' is ${oleRefusals[kind]}`);
  }
  const magic = fib.length >= 12 ? fib.readUInt16LE(0) : 0;
  if (magic === WORD_95_MAGIC)
    throw new UnreadableFileError(
      `'${filename}' is a Word 6 or Word 95 document, which Rhizome cannot read: ${SAVE_AS}`,
    );
  if (magic !== WORD_97_MAGIC) throw new UnreadableFileError(`${WHAT} has no Word document header`);
  const flags = fib.readUInt16LE(0x0a);
  if (flags & F_ENCRYPTED)
    throw new UnreadableFileError(`'${filename}' is password-protected: ${SAVE_AS} without a password`);
  const table = flags & F_WHICH_TABLE ? '1Table' : '0Table';
  if (!file.streams.has(table)) throw new UnreadableFileError(`${WHAT} has no ${table} stream`);
}

export const docLoader = defineLoader('doc', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, WHAT);
  const file = CompoundFile.open(bytes, WHAT);
  checkWordDocument(file, input.filename);
  const properties = summaryProperties(file.stream('\x05SummaryInformation'));

  const { default: WordExtractor } = await import('word-extractor');
  const extracted = await new WordExtractor().extract(bytes);
  input.signal.throwIfAborted();
  const assembler = new TextAssembler(input.limits.maxTextChars);
  for (const [section, text] of [
    [null, extracted.getBody()],
    ['Text boxes', extracted.getTextboxes({ includeHeadersAndFooters: false })],
    ['Footnotes', extracted.getFootnotes()],
    ['Endnotes', extracted.getEndnotes()],
  ] as const) {
    // Word ends a table cell and a row alike (word-extractor makes both a tab); a row's end before a paragraph is dropped.
    const tidy = text
      .replace(/[^\S\n\t]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\t+(?=\n|$)/g, '');
    if (!assembler.add(tidy, null, section)) break;
  }
  return {
    ...assembler.result(),
    format: 'doc',
    kind: 'prose',
    title: properties.title,
    metadata: { author: properties.author },
  };
});
