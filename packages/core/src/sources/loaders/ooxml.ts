/** Office Open XML package parts shared by the DOCX, XLSX and PPTX loaders: relationships and core properties. */
import { UnreadableFileError } from './port.ts';
import { elementTexts, localName, scanXml } from './xml-scan.ts';
import { resolveEntryPath, type BoundedArchive } from './zip-bounds.ts';

export interface Relationship {
  /** Entry name the relationship points to. */
  target: string;
  /** The last segment of the relationship type URI: `officeDocument`, `worksheet`, `slide`, `sharedStrings` … */
  type: string;
}

/** `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`; the package itself (``) → `_rels/.rels`. */
function relationshipsPart(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** Internal relationships of a part by id. */
export async function readRelationships(archive: BoundedArchive, part: string): Promise<Map<string, Relationship>> {
  const relationships = new Map<string, Relationship>();
  const xml = await archive.readText(relationshipsPart(part));
  if (!xml) return relationships;
  for (const token of scanXml(xml)) {
    if (token.type !== 'open' || token.name !== 'Relationship' || token.attrs.TargetMode === 'External') continue;
    const { Id: id, Target: target = '', Type: type = '' } = token.attrs;
    // Targets are relative to the part's folder; the package's own relationships are relative to the root.
    const resolved = resolveEntryPath(part || '_', target);
    if (id && resolved) relationships.set(id, { target: resolved, type: type.slice(type.lastIndexOf('/') + 1) });
  }
  return relationships;
}

/** The main part (`word/document.xml`, `xl/workbook.xml`, `ppt/presentation.xml`), found through `_rels/.rels`. */
export async function mainPart(archive: BoundedArchive, fallback: string, what: string): Promise<string> {
  for (const relationship of (await readRelationships(archive, '')).values()) {
    if (relationship.type === 'officeDocument' && archive.has(relationship.target)) return relationship.target;
  }
  if (archive.has(fallback)) return fallback;
  throw new UnreadableFileError(`${what} has no ${fallback} part`);
}

/** Title and author from `docProps/core.xml`, when present. */
export async function coreProperties(
  archive: BoundedArchive,
): Promise<{ title: string | null; author: string | null }> {
  const xml = await archive.readText('docProps/core.xml');
  if (!xml) return { title: null, author: null };
  return { title: elementTexts(xml, 'title')[0] || null, author: elementTexts(xml, 'creator')[0] || null };
}

/** The prefixed id attribute (`r:id`, in the relationships namespace) that names a related part; `id` alone is something else. */
export function relationshipId(attrs: Record<string, string>): string | undefined {
  for (const [key, value] of Object.entries(attrs)) if (key.includes(':') && localName(key) === 'id') return value;
  return undefined;
}
