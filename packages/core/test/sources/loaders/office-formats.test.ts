import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAllowedContentTypes } from '@rhizome/contracts/settings';
import { allowedType } from '../../../src/sources/loaders/allowed-type.ts';
import { odfBlocks } from '../../../src/sources/loaders/odf-blocks.ts';
import { CompoundFile } from '../../../src/sources/loaders/ole-compound.ts';
import { UnreadableFileError, type LoadedDocument, type LoaderLimits } from '../../../src/sources/loaders/port.ts';
import { loadDocument } from '../../../src/sources/loaders/registry.ts';
import { readRtf } from '../../../src/sources/loaders/rtf-reader.ts';
import { legacyRefusal, sniffMediaType } from '../../../src/sources/loaders/sniff.ts';
import { containerKindOf } from '../../../src/sources/unpack/kind.ts';
import {
  DOC_TEXT,
  ODP_BODY,
  ODS_BODY,
  ODT_BODY,
  RTF,
  legacyOffice,
  odfPackage,
  wordDocument,
  xlsm,
} from './office-fixtures.ts';

const LIMITS: LoaderLimits = { maxUnpackedBytes: 4 * 1024 * 1024, maxEntries: 64, maxTextChars: 1_000_000 };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rhizome-office-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(filename: string, bytes: Buffer | string, limits: Partial<LoaderLimits> = {}) {
  const file = path.join(dir, filename);
  await writeFile(file, bytes);
  return loadDocument({ path: file, filename, limits: { ...LIMITS, ...limits }, signal: new AbortController().signal });
}

function spans(doc: LoadedDocument) {
  return doc.spans.map((span) => ({
    text: doc.text.slice(span.start, span.end),
    page: span.page,
    section: span.section,
  }));
}

describe('RTF reader', () => {
  const document = readRtf(RTF, 1_000_000);

  it('keeps the info title and author, and finds headings by style and by outline level', () => {
    expect(document.title).toBe('Lighthouse Keeper’s Log');
    expect(document.author).toBe('Marguerite Thal');
    expect(document.paragraphs.filter((paragraph) => paragraph.level !== null)).toEqual([
      { text: 'Arrival at Skerryvore', level: 1 },
      { text: 'Supplies', level: 1 },
    ]);
  });

  it('decodes hex escapes in the document and font code pages, and Unicode escapes without their fallbacks', () => {
    const text = document.paragraphs.map((paragraph) => paragraph.text);
    expect(text).toContain('The keeper met a café owner named Zoë. Prices in € and 日 kanji.');
    expect(text).toContain('Привет from Murmansk.\nSecond line\ttabbed');
  });

  it('reads table rows as tab-joined lines', () => {
    const text = document.paragraphs.map((paragraph) => paragraph.text);
    expect(text).toContain('Lamp oil\t40 gallons');
    expect(text).toContain('Wicks\t12');
  });

  it('leaves out tables, pictures, headers, hidden text and starred destinations', () => {
    const all = document.paragraphs.map((paragraph) => paragraph.text).join('\n');
    for (const absent of [
      'Arial',
      'Normal',
      'heading 1',
      'Default Paragraph',
      'Riched20',
      '0a0b0c',
      'zzheaderword',
      'zzhiddenword',
      'mark',
      '2026',
    ])
      expect(all).not.toContain(absent);
  });

  it('jumps over \\bin data, takes escaped braces as text, and stops at the character budget', () => {
    const binary = readRtf(String.raw`{\rtf1 before {\bin5 {}\}x} after \{braced\}\par}`, 1000);
    expect(binary.paragraphs).toEqual([{ text: 'before after {braced}', level: null }]);
    const long = readRtf(
      `{\\rtf1 ${'word '.repeat(50)}\\par ${'more '.repeat(50)}\\par ${'last '.repeat(50)}\\par}`,
      100,
    );
    expect(long.truncated).toBe(true);
    expect(long.paragraphs.length).toBeLessThan(3);
  });

  it('refuses nesting no editor writes instead of exhausting memory', () => {
    expect(() => readRtf(`{\\rtf1 ${'{'.repeat(20_000)}x}`, 1000)).toThrow(UnreadableFileError);
  });
});

describe('OpenDocument blocks', () => {
  it('streams headings, paragraphs and table rows, skipping comments and tracked deletions', () => {
    const blocks = [...odfBlocks(`<office:text>${ODT_BODY}</office:text>`)];
    expect(blocks).toEqual([
      { type: 'heading', text: 'Harbour Survey', level: 1 },
      { type: 'paragraph', text: 'The Quillfeather accord was signed at dawn.', title: false },
      { type: 'heading', text: 'Tide tables', level: 2 },
      { type: 'table', name: 'Tides' },
      { type: 'row', cells: ['Port', 'High water'], repeat: 1 },
      { type: 'row', cells: ['Marrowick', '4.2'], repeat: 1 },
      { type: 'paragraph', text: 'Moorings at Pellow Sound\nsecond line', title: false },
    ]);
  });

  it('expands repeated cells between values, drops trailing empty ones, and keeps typed values without text', () => {
    const rows = [...odfBlocks(ODS_BODY)].filter((block) => block.type === 'row');
    expect(rows).toEqual([
      { type: 'row', cells: ['Name', 'Role'], repeat: 1 },
      { type: 'row', cells: ['Elspeth Varrow', '', '', 'Navigator'], repeat: 1 },
      { type: 'row', cells: ['Saffron bales', '120'], repeat: 1 },
      { type: 'row', cells: ['Tallow casks'], repeat: 2 },
    ]);
  });

  it('marks the paragraphs of a slide title frame and leaves speaker notes out', () => {
    const blocks = [...odfBlocks(ODP_BODY)];
    expect(blocks.slice(0, 3)).toEqual([
      { type: 'page', name: 'page1' },
      { type: 'paragraph', text: 'Opening Moves', title: true },
      { type: 'paragraph', text: 'The lanternfish migration begins', title: false },
    ]);
    expect(JSON.stringify(blocks)).not.toContain('notes');
  });
});

describe('OpenDocument loaders', () => {
  it('reads a text with its meta title, a section per heading and its table as rows', async () => {
    const doc = await load('survey.odt', await odfPackage('text', ODT_BODY, { title: 'Harbour Survey 2026' }));
    expect(doc).toMatchObject({ format: 'odt', kind: 'prose', title: 'Harbour Survey 2026' });
    expect(doc.mediaType).toBe('application/vnd.oasis.opendocument.text');
    expect(doc.metadata).toMatchObject({ author: 'Ada Quay', language: 'en-GB' });
    expect(spans(doc)).toEqual([
      { text: 'Harbour Survey\nThe Quillfeather accord was signed at dawn.', page: null, section: 'Harbour Survey' },
      {
        text: 'Tide tables\nPort\tHigh water\nMarrowick\t4.2\nMoorings at Pellow Sound\nsecond line',
        page: null,
        section: 'Tide tables',
      },
    ]);
    expect(doc.text).not.toMatch(/zzcommentword|zzdeletedword/);
  });

  it('takes the first level-1 heading as the title when meta.xml has none', async () => {
    const doc = await load('untitled.odt', await odfPackage('text', ODT_BODY));
    expect(doc.title).toBe('Harbour Survey');
  });

  it('reads each sheet as a span cited by position and name, repeated rows repeated', async () => {
    const doc = await load('crew.ods', await odfPackage('spreadsheet', ODS_BODY, { title: 'Crew list' }));
    expect(doc).toMatchObject({ format: 'ods', kind: 'structured', title: 'Crew list' });
    expect(doc.metadata).toMatchObject({ sheets: ['Crew', 'Cargo'], sheetCount: 2 });
    expect(spans(doc)).toEqual([
      { text: 'Name\tRole\nElspeth Varrow\t\t\tNavigator', page: 1, section: 'Crew' },
      { text: 'Saffron bales\t120\nTallow casks\nTallow casks', page: 2, section: 'Cargo' },
    ]);
  });

  it('reads each slide as a span with its number and title', async () => {
    const doc = await load('talk.odp', await odfPackage('presentation', ODP_BODY));
    expect(doc).toMatchObject({ format: 'odp', kind: 'prose', metadata: { slideCount: 2 } });
    expect(spans(doc)).toEqual([
      { text: 'Opening Moves\nThe lanternfish migration begins', page: 1, section: 'Opening Moves' },
      { text: 'Closing Remarks\nBrackenridge observatory opens', page: 2, section: 'Closing Remarks' },
    ]);
  });

  it('stops at the text limit, and refuses a password-protected package saying so', async () => {
    const cut = await load('crew-cut.ods', await odfPackage('spreadsheet', ODS_BODY), { maxTextChars: 20 });
    expect(cut.text.length).toBeLessThanOrEqual(20);
    expect(cut.warnings.length).toBeGreaterThan(0);
    await expect(load('locked.odt', await odfPackage('text', ODT_BODY, { encrypted: true }))).rejects.toThrow(
      /password-protected/,
    );
  });
});

describe('RTF, XLSM and DOC loaders', () => {
  it('reads RTF with the info title and a section per heading', async () => {
    const doc = await load('log.rtf', RTF);
    expect(doc).toMatchObject({ format: 'rtf', title: 'Lighthouse Keeper’s Log', mediaType: 'application/rtf' });
    expect(spans(doc).map((span) => span.section)).toEqual(['Arrival at Skerryvore', 'Supplies']);
    expect(spans(doc)[1].text).toContain('Lamp oil\t40 gallons');
  });

  it('reads a macro-enabled workbook as sheets, never its macros', async () => {
    const doc = await load('ledger.xlsm', await xlsm());
    expect(doc).toMatchObject({ format: 'xlsm', mediaType: 'application/vnd.ms-excel.sheet.macroEnabled.12' });
    expect(spans(doc)).toEqual([
      { text: 'Item\tCost\nCopper rivets\t17.5', page: 1, section: 'Ledger' },
      { text: 'Recalculated by the Thornbury macro', page: 2, section: 'Macros notes' },
    ]);
    expect(doc.text).not.toContain('zzmacroword');
  });

  it('reads a Word 97–2003 document with its summary title, paragraphs and table cells', async () => {
    const doc = await load('beacon.doc', wordDocument(DOC_TEXT));
    expect(doc).toMatchObject({
      format: 'doc',
      mediaType: 'application/msword',
      title: 'Quarterly Beacon Report',
      metadata: { author: 'Ines Calloway' },
    });
    expect(spans(doc)).toEqual([
      {
        text: 'Beacon maintenance\nThe Penhallow lighthouse needs new lenses.\nPart\tCount\t\tLens\tFour\nAfter the table.',
        page: null,
        section: null,
      },
    ]);
  });

  it('refuses Word 95, password-protected and broken Word files with what to do', async () => {
    await expect(load('old.doc', wordDocument(DOC_TEXT, { magic: 0xa5dc }))).rejects.toThrow(
      /'old\.doc' is a Word 6 or Word 95 document.*save it as \.docx/,
    );
    await expect(load('locked.doc', wordDocument(DOC_TEXT, { flags: 0x0300 }))).rejects.toThrow(
      /'locked\.doc' is password-protected/,
    );
    await expect(load('sheet.doc', legacyOffice('xls'))).rejects.toThrow(/legacy Excel 97–2003 workbook/);
  });

  it('refuses an OLE file whose sector chain loops before any parser walks it', async () => {
    const bytes = wordDocument(DOC_TEXT);
    const file = CompoundFile.open(bytes, 'x');
    expect(file.stream('WordDocument')?.readUInt16LE(0)).toBe(0xa5ec);
    // Point the first FAT entry of the WordDocument stream's chain back at itself through a second sector.
    const looped = Buffer.from(bytes);
    const fatSector = looped.readInt32LE(0x4c);
    const fatAt = (fatSector + 1) * 512;
    const start = findStreamStart(looped, 'WordDocument');
    const next = looped.readInt32LE(fatAt + start * 4);
    looped.writeInt32LE(start, fatAt + next * 4);
    expect(() => CompoundFile.open(looped, 'The DOC file')).toThrow(/chain is broken/);
    await expect(load('looped.doc', looped)).rejects.toThrow(/The DOC file is damaged/);
  });
});

/** The first sector of a top-level stream, read from the directory (which cfb writes in one sector run). */
function findStreamStart(bytes: Buffer, name: string): number {
  const directory = (bytes.readInt32LE(0x30) + 1) * 512;
  for (let p = directory; p + 128 <= bytes.length; p += 128)
    if (bytes.toString('utf16le', p, p + name.length * 2) === name) return bytes.readInt32LE(p + 116);
  throw new Error(`no ${name}`);
}

describe('sniffing office containers', () => {
  it('tells OpenDocument packages by their mimetype entry, whatever their name, and never as archives', async () => {
    for (const [kind, format] of [
      ['text', 'odt'],
      ['spreadsheet', 'ods'],
      ['presentation', 'odp'],
    ] as const) {
      const bytes = await odfPackage(kind, '');
      expect(sniffMediaType(bytes, 'export.zip')).toEqual({
        format,
        mediaType: `application/vnd.oasis.opendocument.${kind}`,
      });
      expect(containerKindOf(bytes, 'export.zip')).toBeNull();
    }
    const bare = await odfPackage('text', '', { withoutMimetype: true });
    expect(sniffMediaType(bare, 'notes.odt')?.format).toBe('odt');
    expect(sniffMediaType(bare, 'notes.zip')).toBeNull();
    expect(containerKindOf(bare, 'notes.zip')).toBe('zip');
  });

  it('tells a workbook with a VBA project as xlsm, and RTF by its {\\rtf start whatever its name', async () => {
    expect(sniffMediaType(await xlsm(), 'renamed.xlsx')?.format).toBe('xlsm');
    expect(sniffMediaType(Buffer.from(RTF, 'latin1'), 'letter.doc')?.format).toBe('rtf');
  });

  it('tells OLE files by the streams their directory names, else by extension', () => {
    expect(sniffMediaType(wordDocument(DOC_TEXT), 'upload.bin')).toEqual({
      format: 'doc',
      mediaType: 'application/msword',
    });
    const xls = legacyOffice('xls');
    expect(sniffMediaType(xls, 'budget.doc')).toBeNull();
    expect(legacyRefusal(xls, 'budget.doc')).toMatch(
      /^'budget\.doc' is a legacy Excel 97–2003 workbook \(\.xls\).*\.xlsx/,
    );
    expect(legacyRefusal(legacyOffice('ppt'), 'deck.ppt')).toMatch(/PowerPoint 97–2003 presentation.*\.pptx/);
    // Only the header: the directory lies past it, so the name decides.
    const head = wordDocument(DOC_TEXT).subarray(0, 512);
    expect(sniffMediaType(head, 'memo.doc')?.format).toBe('doc');
    expect(legacyRefusal(head, 'memo.xls')).toMatch(/legacy Excel/);
    expect(legacyRefusal(head, 'mail.msg')).toMatch(/OLE compound file that is no Word document/);
  });

  it('refuses a legacy Excel upload naming the format and what to save it as, and allows the new types by default', async () => {
    const file = path.join(dir, 'budget.xls');
    await writeFile(file, legacyOffice('xls'));
    expect(await allowedType(file, 'budget.xls', ['*'])).toEqual({
      refused:
        "'budget.xls' is a legacy Excel 97–2003 workbook (.xls), which Rhizome cannot read: save it as .xlsx (or CSV or PDF) and upload that",
    });
    for (const type of [
      'application/vnd.oasis.opendocument.text',
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/vnd.oasis.opendocument.presentation',
      'application/rtf',
      'application/vnd.ms-excel.sheet.macroEnabled.12',
      'application/msword',
    ])
      expect(defaultAllowedContentTypes).toContain(type);
  });
});
