/**
 * Document fixtures for every loader format, generated into a directory (no committed binaries). Each good
 * fixture carries a distinctive word (`expectText`) that its loaded text contains, for keyword-search checks;
 * images carry none (their text comes from vision). Bad fixtures fail to load under `FIXTURE_LIMITS`.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { LoaderLimits } from '../../src/sources/loaders/port.ts';

export type FixtureName =
  | 'textCp1252'
  | 'textUtf16'
  | 'markdown'
  | 'pdf'
  | 'pdfEmptyPassword'
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'epub'
  | 'html'
  | 'csv'
  | 'tsv'
  | 'json'
  | 'jsonl'
  | 'xml'
  | 'rst'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'pngNamedPdf';

export interface Fixture {
  path: string;
  filename: string;
  /** What sniffing reports (always in the default upload allowlist). */
  mediaType: string;
  /** A word the loaded text contains; empty for images. */
  expectText: string;
}

export type BadFixtureName =
  | 'pdfEncrypted'
  | 'pdfCorrupt'
  | 'docxBomb'
  | 'docxOversized'
  | 'docxTooManyEntries'
  | 'docxZipSlip'
  | 'binaryJunk'
  | 'plainZip';

export interface BadFixture {
  path: string;
  filename: string;
  /** What sniffing reports, or null when sniffing refuses the content. */
  mediaType: string | null;
}

/** Limits under which every good fixture loads and every bad one is refused. */
export const FIXTURE_LIMITS: LoaderLimits = { maxUnpackedBytes: 1024 * 1024, maxEntries: 64, maxTextChars: 1_000_000 };

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

// ---------------------------------------------------------------- archives

type Entries = Record<string, string | Buffer>;

async function zipOf(entries: Entries, storedFirst?: string): Promise<Buffer> {
  const zip = new JSZip();
  if (storedFirst) zip.file(storedFirst, entries[storedFirst], { compression: 'STORE' });
  for (const [name, content] of Object.entries(entries)) if (name !== storedFirst) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function relationships(rels: { id: string; type: string; target: string }[]): string {
  const items = rels
    .map((rel) => `<Relationship Id="${rel.id}" Type="${REL_NS}/${rel.type}" Target="${rel.target}"/>`)
    .join('');
  return `${XML_DECLARATION}<Relationships xmlns="${PKG_REL_NS}">${items}</Relationships>`;
}

function contentTypes(overrides: Record<string, string>): string {
  const parts = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join('');
  return (
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    `<Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`
  );
}

function coreXml(title: string): string {
  return (
    `${XML_DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title><dc:creator>Fixture Author</dc:creator></cp:coreProperties>`
  );
}

function docxEntries(paragraphs: { text: string; style?: string }[]): Entries {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const body = paragraphs
    .map(
      ({ text, style }) =>
        `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`,
    )
    .join('');
  return {
    '[Content_Types].xml': contentTypes({
      'word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    }),
    '_rels/.rels': relationships([
      { id: 'rId1', type: 'officeDocument', target: 'word/document.xml' },
      { id: 'rId2', type: 'metadata/core-properties', target: 'docProps/core.xml' },
    ]),
    'word/document.xml': `${XML_DECLARATION}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    'word/styles.xml': `${XML_DECLARATION}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'docProps/core.xml': coreXml('Fixture Word Document'),
  };
}

function docx(): Promise<Buffer> {
  return zipOf(
    docxEntries([
      { text: 'Introduction', style: 'Heading1' },
      { text: 'This Word document mentions rhzdocxword in its first section.' },
      { text: 'Details', style: 'Heading1' },
      { text: 'A second section with more text.' },
    ]),
  );
}

function xlsx(): Promise<Buffer> {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const sheet = (rows: string): string =>
    `${XML_DECLARATION}<worksheet xmlns="${S}"><sheetData>${rows}</sheetData></worksheet>`;
  return zipOf({
    '[Content_Types].xml': contentTypes({
      'xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
    }),
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'xl/workbook.xml' }]),
    'xl/workbook.xml':
      `${XML_DECLARATION}<workbook xmlns="${S}" xmlns:r="${REL_NS}"><sheets>` +
      '<sheet name="People" sheetId="1" r:id="rId1"/><sheet name="Totals" sheetId="2" r:id="rId2"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels': relationships([
      { id: 'rId1', type: 'worksheet', target: 'worksheets/sheet1.xml' },
      { id: 'rId2', type: 'worksheet', target: 'worksheets/sheet2.xml' },
      { id: 'rId3', type: 'sharedStrings', target: 'sharedStrings.xml' },
    ]),
    'xl/sharedStrings.xml':
      `${XML_DECLARATION}<sst xmlns="${S}" count="4" uniqueCount="4"><si><t>Name</t></si><si><t>City</t></si>` +
      '<si><t>Ada</t></si><si><r><t>rhzxlsx</t></r><r><t>cell</t></r></si></sst>',
    'xl/worksheets/sheet1.xml': sheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="C2" t="s"><v>3</v></c></row>',
    ),
    'xl/worksheets/sheet2.xml': sheet(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Total</t></is></c><c r="B1"><v>42.5</v></c><c r="C1" t="b"><v>1</v></c></row>',
    ),
  });
}

function pptx(): Promise<Buffer> {
  const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const shape = (placeholder: string | null, paragraphs: string[]): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${placeholder ? `<p:ph type="${placeholder}"/>` : ''}</p:nvPr></p:nvSpPr>` +
    `<p:txBody><a:bodyPr/>${paragraphs.map((text) => `<a:p><a:r><a:t>${text}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`;
  const slide = (title: string, body: string[]): string =>
    `${XML_DECLARATION}<p:sld xmlns:p="${P}" xmlns:a="${A}"><p:cSld><p:spTree>${shape('title', [title])}${shape(null, body)}</p:spTree></p:cSld></p:sld>`;
  return zipOf({
    '[Content_Types].xml': contentTypes({
      'ppt/presentation.xml': 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
    }),
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'ppt/presentation.xml' }]),
    // The slide list, not the file names, gives the order: slide2.xml is shown first.
    'ppt/presentation.xml':
      `${XML_DECLARATION}<p:presentation xmlns:p="${P}" xmlns:r="${REL_NS}"><p:sldIdLst>` +
      '<p:sldId id="256" r:id="rId3"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>',
    'ppt/_rels/presentation.xml.rels': relationships([
      { id: 'rId2', type: 'slide', target: 'slides/slide1.xml' },
      { id: 'rId3', type: 'slide', target: 'slides/slide2.xml' },
    ]),
    'ppt/slides/slide1.xml': slide('Second Slide', ['closing words', 'rhzpptxlast']),
    'ppt/slides/slide2.xml': slide('Opening Slide', ['rhzpptxfirst appears here']),
  });
}

function epub(): Promise<Buffer> {
  const chapter = (title: string, body: string): string =>
    `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n` +
    `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  return zipOf(
    {
      mimetype: 'application/epub+zip',
      'META-INF/container.xml':
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      'OEBPS/content.opf':
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">' +
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">fixture</dc:identifier><dc:title>Fixture Book</dc:title>' +
        '<dc:creator>Fixture Author</dc:creator><dc:language>en</dc:language></metadata>' +
        // Manifest order differs from spine order on purpose.
        '<manifest><item id="c2" href="text/chapter%202.xhtml" media-type="application/xhtml+xml"/>' +
        '<item id="c1" href="text/chapter1.xhtml" media-type="application/xhtml+xml"/><item id="css" href="style.css" media-type="text/css"/></manifest>' +
        '<spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
      'OEBPS/text/chapter1.xhtml': chapter('The Beginning', '<p>Once upon a time, rhzepubone began.</p>'),
      'OEBPS/text/chapter 2.xhtml': chapter('The End', '<p>And rhzepubtwo ended it.</p>'),
      'OEBPS/style.css': 'p { margin: 0 }',
    },
    'mimetype',
  );
}

// ---------------------------------------------------------------- PDF

async function threePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const word of ['rhzpdfalpha', 'rhzpdfbravo', 'rhzpdfcharlie']) {
    doc.addPage([300, 300]).drawText(`This page says ${word}`, { x: 20, y: 200, size: 12, font });
  }
  doc.setTitle('Fixture PDF');
  return Buffer.from(await doc.save());
}

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

function md5(...parts: Buffer[]): Buffer {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/**
 * A one-page PDF encrypted with the standard security handler (revision 2, 40-bit RC4), which pdf-lib cannot
 * write. With an empty user password any reader opens it; with another one it needs that password.
 */
function encryptedPdf(userPassword: string, text: string): Buffer {
  const padded = (password: string): Buffer =>
    Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);
  const id = md5(Buffer.from(`fixture-${userPassword}`));
  const permissions = -44;
  const owner = rc4(md5(padded('owner-secret')).subarray(0, 5), padded(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(userPassword), owner, p, id).subarray(0, 5);
  const user = rc4(key, PASSWORD_PAD);
  const objectKey = (num: number): Buffer =>
    md5(key, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);
  const content = rc4(objectKey(4), Buffer.from(`BT /F1 12 Tf 20 200 Td (${text}) Tj ET`, 'latin1'));
  return pdfFile(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    ],
    `/Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`,
  );
}

/** Objects numbered from 1, with a correct cross-reference table. */
function pdfFile(objects: (string | Buffer)[], trailer: string): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`),
  ].join('');
  chunks.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------- images

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 255] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A baseline grey JPEG of 8×8 blocks: one-code Huffman tables (DC difference 0, then end of block), so
 * every block is the two bits `00`. A comment segment sits before the frame header, as EXIF data would.
 */
function jpeg(width: number, height: number): Buffer {
  const segment = (marker: number, data: Buffer): Buffer => {
    const header = Buffer.from([0xff, marker, 0, 0]);
    header.writeUInt16BE(data.length + 2, 2);
    return Buffer.concat([header, data]);
  };
  const frame = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  const oneCodeTable = (tableClass: number): Buffer =>
    Buffer.from([tableClass << 4, 1, ...Array<number>(15).fill(0), 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '00'.repeat(blocks).padEnd(Math.ceil((blocks * 2) / 8) * 8, '1');
  const scan = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('4a46494600010100000100010000', 'hex')),
    segment(0xfe, Buffer.from('fixture comment '.repeat(40))),
    segment(0xdb, Buffer.from([0, ...Array<number>(64).fill(1)])),
    segment(0xc0, frame),
    segment(0xc4, oneCodeTable(0)),
    segment(0xc4, oneCodeTable(1)),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}

const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const WEBP_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

// ---------------------------------------------------------------- text formats

const CP1252: Record<string, number> = { '€': 0x80, '—': 0x97, '’': 0x92, '“': 0x93, '”': 0x94 };

function cp1252(text: string): Buffer {
  return Buffer.from([...text].map((char) => CP1252[char] ?? char.charCodeAt(0)));
}

const MARKDOWN = `---
title: Fixture Notes
---
# Fixture Notes

Intro paragraph.

## Installation

Run the rhzmarkdown installer.

\`\`\`sh
# not a heading inside code
\`\`\`

Usage
-----

Call it.
`;

const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fixture Article</title>
<script>var tracking = "rhzscriptnoise";</script><style>body { color: red }</style></head>
<body>
<header><nav><a href="/">Home</a> <a href="/about">rhznavnoise</a></nav></header>
<main><article>
<h1>Fixture Article</h1>
<p>${'The article body explains how rhzhtmlarticle works in some detail, with enough words to be the main content. '.repeat(6)}</p>
<h2>Second part</h2>
<p>${'More prose follows here so that the readability heuristics find a real article. '.repeat(6)}</p>
</article></main>
<aside>Related links</aside>
<footer>Copyright footer</footer>
</body></html>
`;

const RST = `=============
Fixture Guide
=============

:Author: Fixture Author

.. contents:: Table of Contents

Overview
========

This guide covers **rhzrstword** and *emphasis*, a \`link <https://example.org>\`_ and :ref:\`the setup <setup>\`.

.. note::
   Notes are kept as text.

.. image:: diagram.png
   :alt: a diagram

.. This is a comment and disappears.

.. _setup:

Setup
-----

Run it::

    rhz-setup --now
`;

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE catalog [ <!ENTITY boom "boom"> ]>
<catalog xmlns="urn:fixture">
  <book id="bk101">
    <author>Gambardella, Matthew</author>
    <title>rhzxmltitle &amp; friends</title>
    <price>44.95</price>
  </book>
  <book id="bk102"><author>Ralls, Kim</author><title>Midnight Rain</title><note><![CDATA[<raw> text]]></note></book>
</catalog>
`;

// ---------------------------------------------------------------- writing

async function put(dir: string, filename: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, filename);
  await writeFile(file, content);
  return file;
}

export async function writeFixtures(dir: string): Promise<Record<FixtureName, Fixture>> {
  await mkdir(dir, { recursive: true });
  const fixture = async (
    filename: string,
    content: string | Buffer,
    mediaType: string,
    expectText: string,
  ): Promise<Fixture> => ({
    path: await put(dir, filename, content),
    filename,
    mediaType,
    expectText,
  });
  const pngBytes = png(3, 2);
  return {
    textCp1252: await fixture(
      'cp1252.txt',
      cp1252('Café crème brûlée — l’été coûte 5 € at rhzcptext.\n'),
      'text/plain',
      'rhzcptext',
    ),
    textUtf16: await fixture(
      'utf16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Ünïcödé text ✓ with rhzutfsixteen inside.\n', 'utf16le')]),
      'text/plain',
      'rhzutfsixteen',
    ),
    markdown: await fixture('notes.md', MARKDOWN, 'text/markdown', 'rhzmarkdown'),
    pdf: await fixture('three-pages.pdf', await threePagePdf(), 'application/pdf', 'rhzpdfbravo'),
    pdfEmptyPassword: await fixture(
      'empty-password.pdf',
      encryptedPdf('', 'Opened with rhzpdfopened'),
      'application/pdf',
      'rhzpdfopened',
    ),
    docx: await fixture('report.docx', await docx(), DOCX_TYPE, 'rhzdocxword'),
    xlsx: await fixture('table.xlsx', await xlsx(), XLSX_TYPE, 'rhzxlsxcell'),
    pptx: await fixture('deck.pptx', await pptx(), PPTX_TYPE, 'rhzpptxfirst'),
    epub: await fixture('book.epub', await epub(), 'application/epub+zip', 'rhzepubtwo'),
    html: await fixture('article.html', HTML, 'text/html', 'rhzhtmlarticle'),
    csv: await fixture(
      'people.csv',
      'name;city;note\nAda;London;"rhzcsvrow; quoted"\nGrace;"New York";\n',
      'text/csv',
      'rhzcsvrow',
    ),
    tsv: await fixture('people.tsv', 'name\tcity\nAlan\trhztsvcity\n', 'text/csv', 'rhztsvcity'),
    json: await fixture(
      'data.json',
      JSON.stringify({ project: { name: 'rhzjsonname', tags: ['a', 'b'], meta: {} }, count: 3 }, null, 2),
      'application/json',
      'rhzjsonname',
    ),
    jsonl: await fixture(
      'events.jsonl',
      '{"event":"start","by":"rhzjsonlevent"}\n{broken json\n{"event":"stop","ok":true}\n',
      'application/x-ndjson',
      'rhzjsonlevent',
    ),
    xml: await fixture('catalog.xml', XML, 'application/xml', 'rhzxmltitle'),
    rst: await fixture('guide.rst', RST, 'text/plain', 'rhzrstword'),
    png: await fixture('pixel.png', pngBytes, 'image/png', ''),
    jpeg: await fixture('photo.jpg', jpeg(16, 8), 'image/jpeg', ''),
    gif: await fixture('dot.gif', GIF_1X1, 'image/gif', ''),
    webp: await fixture('dot.webp', WEBP_1X1, 'image/webp', ''),
    pngNamedPdf: await fixture('scan.pdf', pngBytes, 'image/png', ''),
  };
}

/** A deflated entry whose sizes in the local header and central directory are rewritten to `declared`. */
function lieAboutSize(zip: Buffer, entry: string, declared: number): Buffer {
  const out = Buffer.from(zip);
  for (let p = out.length - 22; p >= 0; p--) {
    if (out.readUInt32LE(p) !== 0x02014b50) continue;
    const nameLength = out.readUInt16LE(p + 28);
    if (out.toString('utf8', p + 46, p + 46 + nameLength) !== entry) continue;
    out.writeUInt32LE(declared, p + 24);
    out.writeUInt32LE(declared, out.readUInt32LE(p + 42) + 22);
    return out;
  }
  throw new Error(`no entry ${entry}`);
}

/** `bombBytes`: how much the zip bomb inflates to; keep it above the limit the loaders run with. */
export async function writeBadFixtures(
  dir: string,
  bombBytes = 4 * FIXTURE_LIMITS.maxUnpackedBytes,
): Promise<Record<BadFixtureName, BadFixture>> {
  await mkdir(dir, { recursive: true });
  const fixture = async (
    filename: string,
    content: string | Buffer,
    mediaType: string | null,
  ): Promise<BadFixture> => ({
    path: await put(dir, filename, content),
    filename,
    mediaType,
  });
  const padding = Buffer.alloc(bombBytes);
  const base = docxEntries([{ text: 'a document' }]);
  const goodPdf = await threePagePdf();
  const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
  return {
    pdfEncrypted: await fixture('locked.pdf', encryptedPdf('hunter2', 'secret text'), 'application/pdf'),
    pdfCorrupt: await fixture('truncated.pdf', goodPdf.subarray(0, 400), 'application/pdf'),
    docxBomb: await fixture(
      'bomb.docx',
      lieAboutSize(await zipOf({ ...base, 'word/media/zeros.bin': padding }), 'word/media/zeros.bin', 1000),
      DOCX_TYPE,
    ),
    docxOversized: await fixture(
      'oversized.docx',
      await zipOf({ ...base, 'word/media/zeros.bin': padding }),
      DOCX_TYPE,
    ),
    docxTooManyEntries: await fixture(
      'many.docx',
      await zipOf({
        ...base,
        ...Object.fromEntries(
          Array.from({ length: FIXTURE_LIMITS.maxEntries + 10 }, (_, i) => [`customXml/item${i}.xml`, '<a/>']),
        ),
      }),
      DOCX_TYPE,
    ),
    docxZipSlip: await fixture('slip.docx', await zipSlip(base), DOCX_TYPE),
    binaryJunk: await fixture('notes.txt', junk, null),
    plainZip: await fixture(
      'bundle.zip',
      await zipOf({ 'readme.txt': 'hello', 'data/values.csv': 'a,b\n1,2\n' }),
      null,
    ),
  };
}

/** jszip cleans `../` out of names it writes, so the entry name is patched afterwards (same length). */
async function zipSlip(entries: Entries): Promise<Buffer> {
  const zip = await zipOf({ ...entries, 'xx/xx/evil.sh': 'echo owned' });
  const from = Buffer.from('xx/xx/evil.sh');
  const to = Buffer.from('../../evil.sh');
  let p = zip.indexOf(from);
  while (p >= 0) {
    to.copy(zip, p);
    p = zip.indexOf(from, p + 1);
  }
  return zip;
}
