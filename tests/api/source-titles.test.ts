import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource, type UploadFile } from '../support/sources.ts';

/** A Word document whose paragraphs carry the given styles, with no core properties (so no declared title). */
async function docxWith(paragraphs: { text: string; style?: string }[]): Promise<Buffer> {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const body = paragraphs
    .map(
      ({ text, style }) =>
        `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`,
    )
    .join('');
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
  );
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * A source's title when the upload gave none: the title its metadata declares, else (for a file name that
 * says nothing of its subject) its first heading, else a short first line standing alone, else the file name.
 */
interface BatchAnswer {
  files: SourceResponseBody[];
}

describe('source titles from the document', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  /** Uploads the files in one batch and returns each one's title once indexed, by file name. */
  const titlesOf = async (files: UploadFile[], fields: Record<string, string> = {}) => {
    const batch = await uploadSources(server, cookie, '/sources/batch', files, {
      extract_entities: 'false',
      ...fields,
    });
    expect(batch.status, batch.text).toBe(202);
    const titles: Record<string, string | null> = {};
    for (const file of (batch.body as BatchAnswer).files) {
      const source = await waitForSource(server, cookie, file.id, ['indexed', 'error']);
      expect(source.status, `${file.filename}: ${source.error_message}`).toBe('indexed');
      titles[file.filename!] = source.title;
    }
    return titles;
  };

  it('takes the first heading of reST, HTML without <title> and DOCX (Heading 1)', async () => {
    const titles = await titlesOf([
      {
        name: 'doc-0003.rst',
        content: '=============\nKestrel Point\n=============\n\nHistory\n-------\n\nBuilt in 1871.\n',
      },
      {
        name: 'page_0001.html',
        content:
          '<!doctype html><html><head><meta charset="utf-8"></head><body><main><h1>Orchard of Forty Varieties</h1>' +
          '<p>The orchard above the harbour grows forty varieties of apple, planted by the lighthouse keepers.</p>' +
          '<h2>Planting</h2><p>Each tree was grafted by hand in the spring of 1902.</p></main></body></html>',
      },
      {
        name: 'scan_0042.docx',
        content: await docxWith([
          { text: 'The keeper wrote this note before the heading.' },
          { text: 'Harbour Ice Records', style: 'Heading1' },
          { text: 'The harbour froze in the winters of 1895 and 1947.' },
        ]),
      },
    ]);
    expect(titles).toEqual({
      'doc-0003.rst': 'Kestrel Point',
      'page_0001.html': 'Orchard of Forty Varieties',
      'scan_0042.docx': 'Harbour Ice Records',
    });
  }, 60_000);

  it('takes a short first line standing alone when a plain text has no heading and its name says nothing', async () => {
    const titles = await titlesOf([
      { name: 'doc-0001.txt', content: 'Marie Curie\n\nMarie Curie was a physicist and chemist born in Warsaw.\n' },
      { name: 'IMG_2031.txt', content: '\n  Harbour Ice Records  \n\nThe harbour froze in 1895.\n' },
      { name: 'doc-0004.txt', content: 'John Middleton Murry Jr.\n\nAn English writer and critic.\n' },
      { name: 'doc-0005.txt', content: 'Lloyd (film)\n\nLloyd is a 2001 American comedy film.\n' },
      // Not a title: a sentence, a list item, code, a line running on without a blank line after it.
      { name: 'export-17.txt', content: 'The harbour froze in 1895.\n\nIt thawed in March.\n' },
      { name: 'untitled 3.txt', content: '- first item\n\n- second item\n' },
      { name: 'note_12.txt', content: '    const harbour = freeze();\n\nThe code above.\n' },
      { name: '0042.txt', content: 'Harbour records\ncontinue on this line without a break.\n' },
    ]);
    expect(titles).toEqual({
      'doc-0001.txt': 'Marie Curie',
      'IMG_2031.txt': 'Harbour Ice Records',
      'doc-0004.txt': 'John Middleton Murry Jr.',
      'doc-0005.txt': 'Lloyd (film)',
      'export-17.txt': 'export-17.txt',
      'untitled 3.txt': 'untitled 3.txt',
      'note_12.txt': 'note_12.txt',
      '0042.txt': '0042.txt',
    });
  }, 60_000);

  it('keeps a file name that names its subject, and a title set by hand', async () => {
    const content = 'Marie Curie\n\nMarie Curie was a physicist and chemist born in Warsaw.\n';
    const named = await titlesOf([
      { name: 'polonium-discovery.txt', content },
      { name: 'HarbourIceRecords.txt', content },
    ]);
    expect(named).toEqual({
      'polonium-discovery.txt': 'polonium-discovery.txt',
      'HarbourIceRecords.txt': 'HarbourIceRecords.txt',
    });

    // Processing paused, so the title is set by hand before the source is read.
    const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
    expect((await call('POST', '/system/processing/pause', { reason: 'title by hand' })).status).toBe(200);
    const upload = await uploadSources(server, cookie, '/sources', [{ name: 'doc-0002.txt', content }], {
      extract_entities: 'false',
    });
    expect(upload.status, upload.text).toBe(202);
    const id = (upload.body as SourceResponseBody).id;
    expect((await call('PATCH', `/sources/${id}`, { title: 'Curie, by hand' })).status).toBe(200);
    expect((await call('POST', '/system/processing/resume')).status).toBe(200);
    const source = await waitForSource(server, cookie, id, ['indexed', 'error']);
    expect(source).toMatchObject({ status: 'indexed', title: 'Curie, by hand' });
  }, 60_000);
});
