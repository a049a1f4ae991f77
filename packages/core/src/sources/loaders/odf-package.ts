/** The parts of an OpenDocument package the loaders read: `content.xml` and the metadata in `meta.xml`. */
import { UnreadableFileError, type LoaderInput } from './port.ts';
import { readWhole } from './read.ts';
import { elementTexts, localName, scanXml } from './xml-scan.ts';
import { openArchive } from './zip-bounds.ts';

export interface OdfPackage {
  content: string;
  title: string | null;
  author: string | null;
  language: string | null;
}

/** Whether the manifest lists encryption data for an entry (a password-protected document). */
function isEncrypted(manifest: string | null): boolean {
  if (!manifest) return false;
  for (const token of scanXml(manifest))
    if (token.type === 'open' && localName(token.name) === 'encryption-data') return true;
  return false;
}

/** Opens the package within the loader limits; `what` names it in errors ("The ODT file"). */
export async function openOdfPackage(input: LoaderInput, what: string): Promise<OdfPackage> {
  input.signal.throwIfAborted();
  const bytes = await readWhole(input.path, input.limits.maxUnpackedBytes, what);
  const archive = await openArchive(bytes, input.limits, what);
  if (isEncrypted(await archive.readText('META-INF/manifest.xml')))
    throw new UnreadableFileError(`${what} is password-protected: save it without a password and upload it again`);
  const content = await archive.readText('content.xml');
  if (content === null) throw new UnreadableFileError(`${what} has no content.xml part`);
  const meta = (await archive.readText('meta.xml')) ?? '';
  const first = (local: string): string | null => elementTexts(meta, local)[0] || null;
  return {
    content,
    title: first('title'),
    author: first('initial-creator') ?? first('creator'),
    language: first('language'),
  };
}
