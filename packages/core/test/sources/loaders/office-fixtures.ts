/**
 * Office files built in the tests (no committed binaries): OpenDocument text, spreadsheet and presentation
 * packages, an RTF document, a macro-enabled workbook, and Word 97–2003, Excel and PowerPoint OLE files.
 * Each carries distinctive words the tests look for, placed in a known section, sheet or slide.
 */
import CFB from 'cfb';
import JSZip from 'jszip';

const ODF_NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
].join(' ');
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export type OdfKind = 'text' | 'spreadsheet' | 'presentation';

export interface OdfOptions {
  /** `dc:title` in meta.xml; none when absent. */
  title?: string;
  /** Leave the `mimetype` entry out (a package only its extension tells). */
  withoutMimetype?: boolean;
  /** Mark content.xml encrypted in the manifest, as a password-protected save does. */
  encrypted?: boolean;
}

/** A package as LibreOffice writes one: `mimetype` first and stored, then the XML parts. */
export async function odfPackage(kind: OdfKind, body: string, options: OdfOptions = {}): Promise<Buffer> {
  const zip = new JSZip();
  if (!options.withoutMimetype)
    zip.file('mimetype', `application/vnd.oasis.opendocument.${kind}`, { compression: 'STORE' });
  zip.file(
    'content.xml',
    `${XML_DECLARATION}<office:document-content ${ODF_NS} office:version="1.3">` +
      '<office:font-face-decls><style:font-face style:name="Liberation Serif"/></office:font-face-decls>' +
      `<office:automatic-styles/><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`,
  );
  zip.file(
    'meta.xml',
    `${XML_DECLARATION}<office:document-meta ${ODF_NS}><office:meta>` +
      `${options.title ? `<dc:title>${options.title}</dc:title>` : ''}<meta:initial-creator>Ada Quay</meta:initial-creator>` +
      '<dc:language>en-GB</dc:language></office:meta></office:document-meta>',
  );
  zip.file('styles.xml', `${XML_DECLARATION}<office:document-styles ${ODF_NS}/>`);
  const encryption = options.encrypted
    ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/>'
    : '';
  zip.file(
    'META-INF/manifest.xml',
    `${XML_DECLARATION}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">` +
      `<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.${kind}"/>` +
      `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${encryption}</manifest:file-entry>` +
      '</manifest:manifest>',
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const cell = (text: string, attrs = '') => `<table:table-cell${attrs}><text:p>${text}</text:p></table:table-cell>`;
const row = (...cells: string[]) => `<table:table-row>${cells.join('')}</table:table-row>`;

/** A text: two headed sections, a table, a list, and a comment and a tracked deletion that are not text. */
export const ODT_BODY =
  '<text:sequence-decls><text:sequence-decl text:name="Table"/></text:sequence-decls>' +
  '<text:h text:outline-level="1">Harbour Survey</text:h>' +
  '<text:p>The <text:span>Quillfeather</text:span> accord<text:s text:c="3"/>was signed at dawn.' +
  '<office:annotation><dc:creator>Reviewer</dc:creator><text:p>zzcommentword</text:p></office:annotation></text:p>' +
  '<text:tracked-changes><text:changed-region text:id="c1"><text:deletion><text:p>zzdeletedword</text:p></text:deletion></text:changed-region></text:tracked-changes>' +
  '<text:h text:outline-level="2">Tide tables</text:h>' +
  `<table:table table:name="Tides"><table:table-column/>${row(cell('Port'), cell('High water'))}${row(cell('Marrowick'), cell('4.2', ' office:value-type="float" office:value="4.2"'))}</table:table>` +
  '<text:list><text:list-item><text:p>Moorings at <text:a xlink:href="#x">Pellow Sound</text:a><text:line-break/>second line</text:p></text:list-item></text:list>';

/** Two sheets; the first with repeated empty columns and rows as LibreOffice saves them. */
export const ODS_BODY =
  '<table:table table:name="Crew"><table:table-column table:number-columns-repeated="1024"/>' +
  row(cell('Name'), cell('Role')) +
  `<table:table-row>${cell('Elspeth Varrow')}<table:table-cell table:number-columns-repeated="2"/>${cell('Navigator')}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>` +
  '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>' +
  '</table:table>' +
  '<table:table table:name="Cargo">' +
  row(cell('Saffron bales'), '<table:table-cell office:value-type="float" office:value="120"/>') +
  `<table:table-row table:number-rows-repeated="2">${cell('Tallow casks')}</table:table-row>` +
  '</table:table>';

const slide = (name: string, title: string, body: string, notes: string) =>
  `<draw:page draw:name="${name}">` +
  `<draw:frame presentation:class="title"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame>` +
  `<draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item><text:p>${body}</text:p></text:list-item></text:list></draw:text-box></draw:frame>` +
  `<presentation:notes><draw:frame><draw:text-box><text:p>${notes}</text:p></draw:text-box></draw:frame></presentation:notes>` +
  '</draw:page>';

export const ODP_BODY =
  slide('page1', 'Opening Moves', 'The lanternfish migration begins', 'zznotesword') +
  slide('page2', 'Closing Remarks', 'Brackenridge observatory opens', 'more notes');

/**
 * RTF as Word writes it: font, colour and style tables, an info group, a heading by style and one by outline
 * level, Windows-1252 and Windows-1251 (by font charset) hex escapes, Unicode escapes with their fallbacks,
 * a table, and a picture, a header, a bookmark and hidden text that are not text.
 */
export const RTF = String.raw`{\rtf1\ansi\ansicpg1252\deff0\uc1
{\fonttbl{\f0\fswiss\fcharset0 Arial;}{\f1\froman\fcharset204 Times New Roman Cyr;}}
{\colortbl;\red0\green0\blue0;}
{\stylesheet{\s0\ql Normal;}{\s1\ql\sbasedon0\snext0 heading 1;}{\*\cs10 Default Paragraph Font;}}
{\info{\title Lighthouse Keeper\'92s Log}{\author Marguerite Thal}{\creatim\yr2026\mo3\dy1}}
{\*\generator Riched20 10.0;}
{\header\pard zzheaderword\par}
\pard\plain\s1 Arrival at Skerryvore\par
\pard\plain The keeper met a caf\'e9 owner named Zo\u235?. {\*\bkmkstart mark}Prices in \u8364? and {\uc2\u26085\'93\'fa} kanji.\par
{\pict\wmetafile8\picw10\pich10 0a0b0c0d}
\pard\outlinelevel0 Supplies\par
\pard\intbl Lamp oil\cell 40 gallons\cell\row
\pard\intbl Wicks\cell 12\cell\row
\pard {\f1 \'cf\'f0\'e8\'e2\'e5\'f2} from Murmansk.{\v zzhiddenword}\line Second line\tab tabbed\par
}`;

const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A macro-enabled workbook: two sheets, inline strings, and a VBA project part that is never read. */
export async function xlsm(): Promise<Buffer> {
  const zip = new JSZip();
  const sheet = (rows: string) =>
    `${XML_DECLARATION}<worksheet xmlns="${S}"><sheetData>${rows}</sheetData></worksheet>`;
  const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  zip.file(
    '[Content_Types].xml',
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `${XML_DECLARATION}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `${XML_DECLARATION}<workbook xmlns="${S}" xmlns:r="${REL}"><sheets><sheet name="Ledger" sheetId="1" r:id="rId1"/><sheet name="Macros notes" sheetId="2" r:id="rId2"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `${XML_DECLARATION}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/>` +
      `<Relationship Id="rId3" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/></Relationships>`,
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    sheet(
      `<row r="1">${inline('A1', 'Item')}${inline('B1', 'Cost')}</row><row r="2">${inline('A2', 'Copper rivets')}<c r="B2"><v>17.5</v></c></row>`,
    ),
  );
  zip.file(
    'xl/worksheets/sheet2.xml',
    sheet(`<row r="1">${inline('A1', 'Recalculated by the Thornbury macro')}</row>`),
  );
  zip.file('xl/vbaProject.bin', Buffer.from('zzmacroword Sub AutoOpen() End Sub'));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** An OLE compound file holding these top-level streams. */
function oleFile(streams: Record<string, Buffer>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(container, `/${name}`, content);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A summary property set with a title and an author, in Windows-1252. */
function summaryInformation(title: string, author: string): Buffer {
  const lpstr = (text: string) => {
    const bytes = Buffer.from(`${text}\0`, 'latin1');
    const padded = Buffer.alloc(8 + Math.ceil(bytes.length / 4) * 4);
    padded.writeUInt32LE(30, 0);
    padded.writeUInt32LE(bytes.length, 4);
    bytes.copy(padded, 8);
    return padded;
  };
  const codePage = Buffer.alloc(8);
  codePage.writeUInt16LE(2, 0);
  codePage.writeUInt16LE(1252, 4);
  const values: [number, Buffer][] = [
    [1, codePage],
    [2, lpstr(title)],
    [4, lpstr(author)],
  ];
  const table = Buffer.alloc(8 + values.length * 8);
  let offset = table.length;
  values.forEach(([id, value], index) => {
    table.writeUInt32LE(id, 8 + index * 8);
    table.writeUInt32LE(offset, 12 + index * 8);
    offset += value.length;
  });
  table.writeUInt32LE(offset, 0);
  table.writeUInt32LE(values.length, 4);
  const header = Buffer.alloc(48);
  header.writeUInt16LE(0xfffe, 0);
  header.writeUInt32LE(1, 24);
  Buffer.from('e0859ff2f94f6810ab9108002b27b3d9', 'hex').copy(header, 28);
  header.writeUInt32LE(48, 44);
  return Buffer.concat([header, table, ...values.map(([, value]) => value)]);
}

const TEXT_AT = 0x800;

/**
 * A Word 97–2003 document: its text (paragraphs end with \r, table cells with \x07) in one Unicode piece
 * of the WordDocument stream, the piece table in 1Table, and summary properties. The WordDocument
 * stream is past the mini-stream cutoff, 1Table and the properties are within it, so both kinds of chain
 * are read.
 */
export function wordDocument(text: string, options: { title?: string; flags?: number; magic?: number } = {}): Buffer {
  const characters = Buffer.from(text, 'utf16le');
  const word = Buffer.alloc(Math.max(5000, TEXT_AT + characters.length));
  word.writeUInt16LE(options.magic ?? 0xa5ec, 0);
  word.writeUInt16LE(0x00c1, 2);
  word.writeUInt16LE(options.flags ?? 0x0200, 0x0a);
  word.writeUInt32LE(TEXT_AT, 0x18);
  word.writeUInt32LE(text.length, 0x4c);
  const clx = Buffer.alloc(1 + 4 + 8 + 8);
  clx.writeUInt8(2, 0);
  clx.writeUInt32LE(16, 1);
  clx.writeUInt32LE(0, 5);
  clx.writeUInt32LE(text.length, 9);
  clx.writeUInt32LE(TEXT_AT, 15);
  word.writeUInt32LE(0, 0x1a2);
  word.writeUInt32LE(clx.length, 0x1a6);
  characters.copy(word, TEXT_AT);
  return oleFile({
    WordDocument: word,
    '1Table': clx,
    '\x05SummaryInformation': summaryInformation(options.title ?? 'Quarterly Beacon Report', 'Ines Calloway'),
  });
}

export const DOC_TEXT =
  'Beacon maintenance\rThe Penhallow lighthouse needs new lenses.\rPart\x07Count\x07\x07Lens\x07Four\x07\x07\rAfter the table.\r';

/** A legacy Excel or PowerPoint file: the stream a reader would look for, with nothing readable in it. */
export function legacyOffice(kind: 'xls' | 'ppt'): Buffer {
  const stream = kind === 'xls' ? 'Workbook' : 'PowerPoint Document';
  return oleFile({ [stream]: Buffer.alloc(5000, 0x20) });
}
