/**
 * The CCX 2.0 layout as upstream 0.2 wrote it (docs/decisions/0014-ccx-packages.md), shared by the writer and
 * the reader. Fields marked "extension" are Rhizome additions other readers ignore: stable identities
 * (`ccx_iri`), every source a node or edge came from, relationship citations, and the extraction
 * markers the pipeline uses to merge later extractions into imported nodes.
 */

export const ccx2Version = '2.0';
export const rhizomeBaseIri = 'urn:ccx:rhizome:';
export const generator = 'Rhizome';

export const dataFiles = {
  templates: { path: 'templates.jsonld', media_type: 'application/ld+json' },
  knowledge: { path: 'knowledge.jsonld', media_type: 'application/ld+json' },
  workflows: { path: 'workflows.jsonld', media_type: 'application/ld+json' },
  sources: { path: 'sources.jsonl', media_type: 'application/jsonlines' },
} as const;
export type DataFileType = keyof typeof dataFiles;
export const dataFileOrder: DataFileType[] = ['templates', 'knowledge', 'workflows', 'sources'];

/** Entries a 2.0 package may hold besides the data files; the preview image is checksummed when present. */
export const manifestPath = 'manifest.json';
export const readmePath = 'README.txt';
export const previewPath = 'graph_preview.png';

export interface ContentFile {
  type: string;
  path: string;
  media_type: string;
  file_size_bytes: number;
  checksum_sha256: string;
  checksum_sha512: string;
}

/** The entity URI form citations use: `ke:node/<node_id>`. */
export function entityUri(nodeId: string): string {
  return `ke:node/${nodeId}`;
}

export function nodeIdOfEntityUri(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

export function ownIri(kind: 'node' | 'rel' | 'source' | 'template', id: string): string {
  return `${rhizomeBaseIri}${kind}/${id}`;
}

/** The id inside one of our own IRIs, when the IRI is one (an object exported by some Rhizome database). */
export function ownIdOf(iri: string, kind: 'node' | 'rel' | 'source' | 'template'): string | null {
  const prefix = `${rhizomeBaseIri}${kind}/`;
  return iri.startsWith(prefix) ? iri.slice(prefix.length) : null;
}

/** `2026-11-21 19:32:41.741462+00:00`: the manifest datetime form upstream wrote. */
export function manifestDate(date: Date): string {
  return `${date.toISOString().replace('T', ' ').replace('Z', '')}000+00:00`;
}
