import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** The three real documents of the journey: a PDF, a Word file and Markdown, each with sentences to find and cite. */
export const sentences = {
  pdf: 'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway.',
  docx: 'The Bramblewood orchard grows forty varieties of heritage apples.',
  markdown: 'The Woodbridge tide mill turned its wheel with the ebbing tide for eight centuries.',
};

export interface DocumentFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

async function pdf(): Promise<DocumentFile> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  const lines = [
    sentences.pdf,
    'Miriam Holloway was an engineer who was born in Plymouth in 1832.',
    'Miriam Holloway worked for Trinity House in London.',
    'The Kestrel Point lighthouse stands in Cornwall.',
    'Its lamp was converted to electricity in 1932 and automated in 1986.',
  ];
  lines.forEach((line, index) => page.drawText(line, { x: 40, y: 780 - index * 20, size: 11, font }));
  doc.setTitle('Kestrel Point lighthouse');
  return { name: 'lighthouse.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await doc.save()) };
}

async function docx(): Promise<DocumentFile> {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const paragraphs = [
    'Bramblewood orchard',
    sentences.docx,
    'The Bramblewood orchard was planted by Thomas Ashdown in Kent in 1902.',
    'Thomas Ashdown was a gardener who was born in Canterbury.',
    'Harvest festivals are held in the orchard every October.',
  ];
  const body = paragraphs
    .map(
      (text, index) =>
        `<w:p>${index === 0 ? '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>' : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`,
    )
    .join('');
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
  );
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
  );
  return {
    name: 'orchard.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: await zip.generateAsync({ type: 'nodebuffer' }),
  };
}

function markdown(): DocumentFile {
  const text =
    `# Tide mills\n\n${sentences.markdown} The Woodbridge tide mill stands on the river Deben in Suffolk.\n\n` +
    '## Today\n\nThe Woodbridge Tide Mill Trust restored the mill in 1968. The mill is a museum and grinds flour on open days.\n';
  return { name: 'tide-mill.md', mimeType: 'text/markdown', buffer: Buffer.from(text) };
}

export async function journeyDocuments(): Promise<DocumentFile[]> {
  return [await pdf(), await docx(), markdown()];
}
