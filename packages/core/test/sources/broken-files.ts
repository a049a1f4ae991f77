import JSZip from 'jszip';

/** An EPUB whose spine lists `chapters` (entry name under OEBPS/ → content) in order. */
export async function epubWith(chapters: Record<string, string>): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
  );
  const names = Object.keys(chapters);
  zip.file(
    'OEBPS/content.opf',
    '<?xml version="1.0"?><package><metadata><dc:title>Broken Book</dc:title></metadata><manifest>' +
      names.map((name, index) => `<item id="c${index}" href="${name}" media-type="application/xhtml+xml"/>`).join('') +
      '</manifest><spine>' +
      names.map((_, index) => `<itemref idref="c${index}"/>`).join('') +
      '</spine></package>',
  );
  for (const [name, content] of Object.entries(chapters)) zip.file(`OEBPS/${name}`, content);
  return zip.generateAsync({ type: 'nodebuffer' });
}

export const xhtml = (body: string): string =>
  `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title></head><body>${body}</body></html>`;
