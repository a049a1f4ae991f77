/** EPUB: the OPF spine in reading order, each XHTML document as text; chapter headings become sections. */
import { parseHTML } from 'linkedom';
import { TextAssembler } from './assemble.ts';
import { collapseWhitespace, domSections } from './dom-text.ts';
import { defineLoader } from './formats.ts';
import { UnreadableFileError, type LoadedDocument } from './port.ts';
import { readWhole } from './read.ts';
import { elementTexts, localName, scanXml } from './xml-scan.ts';
import { openArchive, resolveEntryPath, type BoundedArchive } from './zip-bounds.ts';

const WHAT = 'The EPUB file';
const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/x-dtbook+xml']);

interface Package {
  title: string | null;
  author: string | null;
  language: string | null;
  /** Entry names of the spine's readable documents, in reading order. */
  spine: string[];
}

async function packagePath(archive: BoundedArchive): Promise<string> {
  const container = await archive.readText('META-INF/container.xml');
  if (!container) throw new UnreadableFileError(`${WHAT} has no META-INF/container.xml`);
  for (const token of scanXml(container)) {
    if (token.type === 'open' && localName(token.name) === 'rootfile' && token.attrs['full-path']) {
      const resolved = resolveEntryPath('', token.attrs['full-path']);
      if (resolved && archive.has(resolved)) return resolved;
    }
  }
  throw new UnreadableFileError(`${WHAT} names no package document that it contains`);
}

export function readPackage(opf: string, opfPath: string): Package {
  const manifest = new Map<string, { href: string; mediaType: string }>();
  const spineIds: string[] = [];
  for (const token of scanXml(opf)) {
    if (token.type !== 'open') continue;
    const name = localName(token.name);
    if (name === 'item' && token.attrs.id && token.attrs.href) {
      manifest.set(token.attrs.id, { href: token.attrs.href, mediaType: token.attrs['media-type'] ?? '' });
    } else if (name === 'itemref' && token.attrs.idref) spineIds.push(token.attrs.idref);
  }
  const spine: string[] = [];
  for (const id of spineIds) {
    const item = manifest.get(id);
    const resolved = item && CONTENT_TYPES.has(item.mediaType) ? resolveEntryPath(opfPath, item.href) : null;
    if (resolved) spine.push(resolved);
  }
  return {
    title: elementTexts(opf, 'title')[0] || null,
    author: elementTexts(opf, 'creator')[0] || null,
    language: elementTexts(opf, 'language')[0] || null,
    spine,
  };
}

/** Entries that `META-INF/encryption.xml` lists as encrypted (DRM, or fonts obfuscated under the IDPF scheme). */
async function encryptedEntries(archive: BoundedArchive): Promise<Set<string>> {
  const xml = await archive.readText('META-INF/encryption.xml');
  const entries = new Set<string>();
  if (!xml) return entries;
  for (const token of scanXml(xml)) {
    if (token.type === 'open' && localName(token.name) === 'CipherReference' && token.attrs.URI) {
      const resolved = resolveEntryPath('', token.attrs.URI);
      if (resolved) entries.add(resolved);
    }
  }
  return entries;
}

export const epubLoader = defineLoader('epub', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, WHAT);
  const archive = await openArchive(bytes, input.limits, WHAT);
  const warnings: string[] = [];
  const mimetype = (await archive.readText('mimetype'))?.trim();
  if (mimetype !== 'application/epub+zip')
    warnings.push(`the mimetype entry says ${JSON.stringify(mimetype ?? null)}, not application/epub+zip`);

  const opfPath = await packagePath(archive);
  const pkg = readPackage((await archive.readText(opfPath))!, opfPath);
  if (pkg.spine.length === 0) throw new UnreadableFileError(`${WHAT} has no readable documents in its spine`);
  const encrypted = await encryptedEntries(archive);
  if (pkg.spine.some((entry) => encrypted.has(entry)))
    throw new UnreadableFileError(`${WHAT} is DRM-protected; its chapters are encrypted`);

  const assembler = new TextAssembler(input.limits.maxTextChars);
  const unreadable: string[] = [];
  for (const entry of pkg.spine) {
    if (assembler.full) break;
    input.signal.throwIfAborted();
    const xhtml = await archive.readText(entry);
    const { document } = parseHTML(xhtml ?? '');
    if (!document.documentElement) {
      unreadable.push(`spine document ${entry} ${xhtml === null ? 'is missing' : 'is not an XHTML document'}`);
      continue;
    }
    const chapterTitle = collapseWhitespace(document.querySelector('title')?.textContent ?? '') || null;
    for (const section of domSections(document.body ?? document.documentElement, chapterTitle)) {
      if (!assembler.add(section.text, null, section.section)) break;
    }
  }
  if (unreadable.length === pkg.spine.length)
    throw new UnreadableFileError(`${WHAT} has no readable chapter: ${unreadable.join('; ')}`);
  const result = assembler.result();
  return {
    ...result,
    warnings: [...warnings, ...unreadable, ...result.warnings],
    format: 'epub',
    kind: 'prose',
    title: pkg.title,
    metadata: { author: pkg.author, language: pkg.language, chapters: pkg.spine.length },
  };
});
