import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAllowedContentTypes } from '@rhizome/contracts/settings';
import { truncateDocument } from '../../src/sources/loaders/assemble.ts';
import {
  UnreadableFileError,
  type LoadedDocument,
  type LoaderFormat,
  type LoaderLimits,
} from '../../src/sources/loaders/port.ts';
import { allLoaders, loadDocument, loaderFor } from '../../src/sources/loaders/registry.ts';
import { SNIFF_BYTES, sniffMediaType } from '../../src/sources/loaders/sniff.ts';
import { openArchive } from '../../src/sources/loaders/zip-bounds.ts';
import {
  FIXTURE_LIMITS,
  writeBadFixtures,
  writeFixtures,
  type BadFixture,
  type BadFixtureName,
  type Fixture,
  type FixtureName,
} from './fixtures.ts';

let dir: string;
let good: Record<FixtureName, Fixture>;
let bad: Record<BadFixtureName, BadFixture>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rhizome-loaders-'));
  good = await writeFixtures(path.join(dir, 'good'));
  bad = await writeBadFixtures(path.join(dir, 'bad'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function load(
  fixture: { path: string; filename: string },
  limits: Partial<LoaderLimits> = {},
  signal = new AbortController().signal,
) {
  return loadDocument({
    path: fixture.path,
    filename: fixture.filename,
    limits: { ...FIXTURE_LIMITS, ...limits },
    signal,
  });
}

function spanTexts(doc: LoadedDocument): { text: string; page: number | null; section: string | null }[] {
  return doc.spans.map((span) => ({
    text: doc.text.slice(span.start, span.end),
    page: span.page,
    section: span.section,
  }));
}

async function head(file: string): Promise<Buffer> {
  return (await readFile(file)).subarray(0, SNIFF_BYTES);
}

const goodNames: FixtureName[] = [
  'textCp1252',
  'textUtf16',
  'markdown',
  'pdf',
  'pdfEmptyPassword',
  'docx',
  'xlsx',
  'pptx',
  'epub',
  'html',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'xml',
  'rst',
  'png',
  'jpeg',
  'gif',
  'webp',
  'pngNamedPdf',
];

describe('registry', () => {
  it('has one loader per format, each with an allowlisted media type first', () => {
    const formats: LoaderFormat[] = [
      'text',
      'markdown',
      'pdf',
      'docx',
      'html',
      'csv',
      'tsv',
      'json',
      'jsonl',
      'xml',
      'xlsx',
      'xlsm',
      'pptx',
      'epub',
      'rst',
      'odt',
      'ods',
      'odp',
      'rtf',
      'doc',
      'image',
      'audio',
      'video',
    ];
    expect(allLoaders.map((loader) => loader.format).sort()).toEqual([...formats].sort());
    for (const format of formats) {
      const loader = loaderFor(format);
      expect(defaultAllowedContentTypes).toContain(loader.mediaTypes[0]);
      expect(loader.extensions.every((ext) => ext.startsWith('.') && ext === ext.toLowerCase())).toBe(true);
    }
  });
});

describe('sniffMediaType', () => {
  it.each(goodNames)('sniffs the %s fixture from its content', async (name) => {
    const fixture = good[name];
    expect(sniffMediaType(await head(fixture.path), fixture.filename)?.mediaType).toBe(fixture.mediaType);
  });

  it('sniffs a .pdf that is really a PNG as an image', async () => {
    expect(sniffMediaType(await head(good.pngNamedPdf.path), 'scan.pdf')).toEqual({
      mediaType: 'image/png',
      format: 'image',
    });
  });

  it('refuses binary junk, plain archives and gzip', async () => {
    expect(sniffMediaType(await head(bad.binaryJunk.path), 'notes.txt')).toBeNull();
    expect(sniffMediaType(await head(bad.plainZip.path), 'bundle.zip')).toBeNull();
    expect(sniffMediaType(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xfe]), 'logs.gz')).toBeNull();
  });

  it('lets clear content overrule the extension, and the extension pick among text formats', () => {
    const sniff = (text: string, filename: string): string | undefined =>
      sniffMediaType(Buffer.from(text), filename)?.format;
    expect(sniff('<!doctype html><html><body>x</body></html>', 'page.txt')).toBe('html');
    expect(sniff('{"a": 1}', 'data.json')).toBe('json');
    expect(sniff('{"a": 1}\n{"a": 2}\n', 'data.ndjson')).toBe('jsonl');
    expect(sniff('a,b\n1,2\n', 'data.json')).toBe('text');
    expect(sniff('<p align="center">logo</p>\n# Title\n', 'README.md')).toBe('markdown');
    expect(sniff('<root><a>1</a></root>', 'data')).toBe('xml');
    expect(sniff('just words', 'report.pdf')).toBe('text');
    expect(sniff('This text mentions %PDF-1.7 early on.', 'notes.txt')).toBe('text');
  });
});

describe('text', () => {
  it('detects Windows-1252 by its curly quotes and euro sign', async () => {
    const doc = await load(good.textCp1252);
    expect(doc.text).toContain('Café crème brûlée — l’été coûte 5 €');
    expect(doc.metadata.encoding).toBe('windows-1252');
    expect(doc.kind).toBe('prose');
  });

  it('reads UTF-16 by its byte order mark', async () => {
    const doc = await load(good.textUtf16);
    expect(doc.text).toBe('Ünïcödé text ✓ with rhzutfsixteen inside.');
    expect(doc.metadata.encoding).toBe('utf-16le');
  });

  it('keeps Markdown headings as sections, not those inside code fences', async () => {
    const doc = await load(good.markdown);
    expect(doc.title).toBe('Fixture Notes');
    expect(spanTexts(doc).map((span) => span.section)).toEqual([null, 'Fixture Notes', 'Installation', 'Usage']);
    expect(spanTexts(doc)[2].text).toContain('# not a heading inside code');
  });

  it('reads no more of a large file than the text limit needs', async () => {
    const file = path.join(dir, 'big.log');
    await writeFile(file, 'é'.repeat(50_000));
    const doc = await load({ path: file, filename: 'big.log' }, { maxTextChars: 1000 });
    expect(doc.text).toBe('é'.repeat(1000));
    expect(doc.metadata.encoding).toBe('utf-8');
    expect(doc.warnings.join()).toMatch(/truncated/);
  });
});

describe('pdf', () => {
  it('keeps page numbers on spans', async () => {
    const doc = await load(good.pdf);
    expect(spanTexts(doc)).toEqual([
      { text: 'This page says rhzpdfalpha', page: 1, section: null },
      { text: 'This page says rhzpdfbravo', page: 2, section: null },
      { text: 'This page says rhzpdfcharlie', page: 3, section: null },
    ]);
    expect(doc.title).toBe('Fixture PDF');
    expect(doc.metadata.pageCount).toBe(3);
  });

  it('opens an encrypted PDF whose user password is empty', async () => {
    const doc = await load(good.pdfEmptyPassword);
    expect(doc.text).toContain('rhzpdfopened');
    expect(doc.metadata.encrypted).toBe(true);
  });

  it('refuses a password-protected PDF with a clear message', async () => {
    await expect(load(bad.pdfEncrypted)).rejects.toThrow(UnreadableFileError);
    await expect(load(bad.pdfEncrypted)).rejects.toThrow(/password-protected/);
  });

  it('refuses a truncated PDF', async () => {
    await expect(load(bad.pdfCorrupt)).rejects.toThrow(UnreadableFileError);
  });

  it('stops at the text limit and says so', async () => {
    const doc = await load(good.pdf, { maxTextChars: 40 });
    expect(doc.text.length).toBeLessThanOrEqual(40);
    expect(doc.spans.every((span) => span.end <= doc.text.length)).toBe(true);
    expect(doc.spans.map((span) => span.page)).toEqual([1, 2]);
    expect(doc.warnings.join()).toMatch(/truncated/);
  });
});

describe('office and ebook archives', () => {
  it('reads DOCX headings as sections, with the core title', async () => {
    const doc = await load(good.docx);
    expect(doc.title).toBe('Fixture Word Document');
    expect(spanTexts(doc)).toEqual([
      {
        text: 'Introduction\nThis Word document mentions rhzdocxword in its first section.',
        page: null,
        section: 'Introduction',
      },
      { text: 'Details\nA second section with more text.', page: null, section: 'Details' },
    ]);
  });

  it('reads XLSX sheets as spans with tab-joined cells in their columns', async () => {
    const doc = await load(good.xlsx);
    expect(spanTexts(doc)).toEqual([
      { text: 'Name\tCity\nAda\t\trhzxlsxcell', page: 1, section: 'People' },
      { text: 'Total\t42.5\tTRUE', page: 2, section: 'Totals' },
    ]);
    expect(doc.metadata.sheets).toEqual(['People', 'Totals']);
    expect(doc.kind).toBe('structured');
  });

  it('reads PPTX slides in presentation order, titled by their title placeholder', async () => {
    const doc = await load(good.pptx);
    expect(spanTexts(doc)).toEqual([
      { text: 'Opening Slide\nrhzpptxfirst appears here', page: 1, section: 'Opening Slide' },
      { text: 'Second Slide\nclosing words\nrhzpptxlast', page: 2, section: 'Second Slide' },
    ]);
  });

  it('reads EPUB chapters in spine order with their titles as sections', async () => {
    const doc = await load(good.epub);
    expect(doc.title).toBe('Fixture Book');
    expect(doc.metadata.author).toBe('Fixture Author');
    expect(spanTexts(doc)).toEqual([
      { text: 'The Beginning\nOnce upon a time, rhzepubone began.', page: null, section: 'The Beginning' },
      { text: 'The End\nAnd rhzepubtwo ended it.', page: null, section: 'The End' },
    ]);
  });

  it('refuses a zip bomb that lies about its sizes', async () => {
    await expect(load(bad.docxBomb)).rejects.toThrow(/unpacks to more than the limit/);
  });

  it('counts inflated bytes on every read, not only the declared sizes', async () => {
    const archive = await openArchive(await readFile(bad.docxBomb.path), FIXTURE_LIMITS, 'the bomb');
    await expect(archive.readText('word/document.xml')).resolves.toContain('a document');
    await expect(archive.readBytes('word/media/zeros.bin')).rejects.toThrow(/unpacks to more than the limit/);
    expect(archive.inflated).toBeLessThan(FIXTURE_LIMITS.maxUnpackedBytes * 2);
  });

  it('refuses archives whose declared size, entry count or entry names break the bounds', async () => {
    await expect(load(bad.docxOversized)).rejects.toThrow(/unpacks to more than the limit/);
    await expect(load(bad.docxTooManyEntries)).rejects.toThrow(/entries, more than the limit of 64/);
    await expect(load(bad.docxZipSlip)).rejects.toThrow(/unsafe entry name/);
  });
});

describe('html', () => {
  it('keeps the article and drops scripts and navigation', async () => {
    const doc = await load(good.html);
    expect(doc.title).toBe('Fixture Article');
    expect(doc.text).toContain('rhzhtmlarticle');
    expect(doc.text).toContain('More prose follows here');
    expect(doc.text).not.toMatch(/rhzscriptnoise|rhznavnoise|Copyright footer/);
    expect(doc.metadata.extractor).toBe('readability');
  });

  it('falls back to the stripped body when there is no article', async () => {
    const file = path.join(dir, 'menu.html');
    await writeFile(
      file,
      '<html><head><title>Menu</title></head><body><nav>rhznav</nav><div>Opening hours: rhzhours</div><footer>rhzfoot</footer></body></html>',
    );
    const doc = await load({ path: file, filename: 'menu.html' });
    expect(doc.title).toBe('Menu');
    expect(doc.text).toContain('Opening hours: rhzhours');
    expect(doc.text).not.toMatch(/rhznav|rhzfoot/);
  });
});

describe('structured text', () => {
  it('renders CSV rows as header: value pairs with a sniffed delimiter', async () => {
    const doc = await load(good.csv);
    expect(doc.text).toBe('name: Ada; city: London; note: rhzcsvrow; quoted\nname: Grace; city: New York');
    expect(doc.metadata.delimiter).toBe(';');
    expect(doc.kind).toBe('structured');
  });

  it('renders TSV rows the same way', async () => {
    expect((await load(good.tsv)).text).toBe('name: Alan; city: rhztsvcity');
  });

  it('flattens JSON to path: value lines', async () => {
    const doc = await load(good.json);
    expect(doc.text.split('\n')).toEqual([
      'project.name: rhzjsonname',
      'project.tags[0]: a',
      'project.tags[1]: b',
      'project.meta: {}',
      'count: 3',
    ]);
  });

  it('reads JSON Lines line by line, a bad line being a warning', async () => {
    const doc = await load(good.jsonl);
    expect(doc.text).toBe('event: start; by: rhzjsonlevent\nevent: stop; ok: true');
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatch(/^line 2: not valid JSON/);
  });

  it('renders XML with its element structure and without expanding DTD entities', async () => {
    const doc = await load(good.xml);
    expect(doc.text).toContain(
      'catalog\n  book [id=bk101]\n    author: Gambardella, Matthew\n    title: rhzxmltitle & friends\n    price: 44.95',
    );
    expect(doc.text).toContain('    note: <raw> text');
    expect(doc.metadata.root).toBe('catalog');
  });

  it('reduces reStructuredText to its prose, titles as sections', async () => {
    const doc = await load(good.rst);
    expect(doc.title).toBe('Fixture Guide');
    expect(spanTexts(doc).map((span) => span.section)).toEqual(['Fixture Guide', 'Overview', 'Setup']);
    expect(doc.text).toContain('This guide covers rhzrstword and emphasis, a link and the setup.');
    expect(doc.text).toContain('Author: Fixture Author');
    expect(doc.text).toContain('Notes are kept as text.');
    expect(doc.text).toContain('Run it:\n\n    rhz-setup --now');
    expect(doc.text).not.toMatch(/diagram\.png|:alt:|comment|Table of Contents|https:\/\//);
  });
});

describe('images', () => {
  it.each([
    ['png', 'png', 3, 2],
    ['jpeg', 'jpeg', 16, 8],
    ['gif', 'gif', 1, 1],
    ['webp', 'webp', 1, 1],
    ['pngNamedPdf', 'png', 3, 2],
  ] as const)('reads the %s header', async (name, format, width, height) => {
    const doc = await load(good[name]);
    expect(doc).toMatchObject({
      kind: 'image',
      format: 'image',
      text: '',
      spans: [],
      metadata: { format, width, height },
    });
    expect(doc.mediaType).toBe(`image/${format}`);
  });
});

describe('loadDocument', () => {
  it.each(goodNames)('loads the %s fixture with its distinctive word and sniffed media type', async (name) => {
    const doc = await load(good[name]);
    expect(doc.mediaType).toBe(good[name].mediaType);
    expect(doc.text).toContain(good[name].expectText);
    for (const span of doc.spans) expect(span.start < span.end && span.end <= doc.text.length).toBe(true);
  });

  it('refuses unknown binary content and plain archives', async () => {
    await expect(load(bad.binaryJunk)).rejects.toThrow(/not in a supported document format/);
    await expect(load(bad.plainZip)).rejects.toThrow(/is a zip archive/);
  });

  it('stops when the task is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(load(good.pdf, {}, controller.signal)).rejects.toThrow(/abort/i);
  });

  it('cuts a finished document and its spans to the text limit', () => {
    const doc: LoadedDocument = {
      text: 'abc\n\ndefgh',
      spans: [
        { start: 0, end: 3, page: 1, section: null },
        { start: 5, end: 10, page: 2, section: null },
      ],
      format: 'text',
      kind: 'prose',
      title: null,
      metadata: {},
      warnings: [],
    };
    expect(truncateDocument(doc, 7)).toMatchObject({
      text: 'abc\n\nde',
      spans: [{ end: 3 }, { start: 5, end: 7 }],
      warnings: [expect.stringMatching(/truncated/)],
    });
    expect(truncateDocument(doc, 100)).toBe(doc);
  });
});
