/**
 * Records what links to and from a source once it is indexed: the names it may be linked by
 * (`source_names`: its file name, its title, the aliases its opening sentence gives the title, the
 * address it was fetched from) and the links its chunks make (`document_links`), each under the key
 * it resolves on (`keys.ts`). Nothing is resolved here: the graph walk joins link keys to name keys
 * when it reads them, so a link whose target arrives later resolves then. A re-run replaces what an
 * earlier run recorded.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../../paths.ts';
import { insertRows, type Db } from '../../storage/index.ts';
import { originalPath } from '../files.ts';
import type { LoaderFormat } from '../loaders/port.ts';
import { getSource, type SourceRow } from '../repo.ts';
import { titleAliases } from '../title.ts';
import { findLinks, type FoundLink } from './find.ts';
import { linkTargetKeys, nameKey, urlKey } from './keys.ts';

/** What recording needs of an indexing run. */
export interface LinkRecording {
  /** The connection indexing writes on. */
  writer: Db;
  paths: DataPaths;
  database: string;
  sourceId: string;
}

/** Bytes of the original read for links: past this a document's links are not looked for. */
const MAX_LINKED_BYTES = 8 * 1024 * 1024;
const LINKING_FORMATS = new Set<LoaderFormat>(['markdown', 'text', 'html']);

interface ChunkText {
  id: string;
  content: string;
}

async function readOriginal(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min((await file.stat()).size, MAX_LINKED_BYTES));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/** The names `source` may be linked by, each once per kind and key. */
export function sourceNames(source: SourceRow, firstChunk: string): { kind: string; name: string; name_key: string }[] {
  const title = source.title ?? source.filename ?? '';
  // A member of an archive is named by its path there ("guide/install.md"); links name it by its file name.
  const basename = path.posix.basename(source.filename ?? '');
  const named = [
    { kind: 'file', name: source.filename ?? '', name_key: nameKey(source.filename ?? '') },
    { kind: 'file', name: basename, name_key: nameKey(basename) },
    { kind: 'title', name: title, name_key: nameKey(title) },
    ...titleAliases(title, firstChunk).map((alias) => ({ kind: 'alias', name: alias, name_key: nameKey(alias) })),
    {
      kind: 'url',
      name: source.origin_url ?? '',
      name_key: source.origin_url ? (urlKey(source.origin_url) ?? '') : '',
    },
  ];
  const seen = new Set<string>();
  return named.filter(
    (row) => row.name_key && !seen.has(`${row.kind} ${row.name_key}`) && seen.add(`${row.kind} ${row.name_key}`),
  );
}

/**
 * Each link with the chunk it is made in: the first chunk, from the previous link's on, whose text holds
 * the link's anchor (or its target as written), else from the start, else the first chunk.
 */
export function placeLinks(
  links: readonly FoundLink[],
  chunks: readonly ChunkText[],
): { link: FoundLink; chunkId: string }[] {
  const texts = chunks.map((chunk) => chunk.content.replace(/\s+/g, ' '));
  const holding = (needle: string, from: number): number => {
    if (!needle) return -1;
    for (let i = from; i < texts.length; i++) if (texts[i].includes(needle)) return i;
    return from > 0 ? holding(needle, 0) : -1;
  };
  let cursor = 0;
  return links.map((link) => {
    const byAnchor = holding(link.anchor, cursor);
    const found = byAnchor >= 0 ? byAnchor : holding(link.target, cursor);
    if (found >= 0) cursor = found;
    return { link, chunkId: chunks[Math.max(found, 0)].id };
  });
}

/** Records the names and links of source `context.sourceId`, just indexed from a `format` original. */
export async function recordDocumentLinks(context: LinkRecording, format: LoaderFormat): Promise<void> {
  const { writer, sourceId } = context;
  const source = await getSource(writer, sourceId);
  if (!source) return;
  const original =
    source.stored_filename !== null && LINKING_FORMATS.has(format)
      ? await readOriginal(originalPath(context.paths, context.database, sourceId, source.stored_filename))
      : '';
  const found = findLinks(original, format);
  // Every chunk when there are links to place, else the first only (the title's aliases are read there).
  const query = writer('document_chunks').where({ source_id: sourceId }).orderBy('chunk_index').select('id', 'content');
  const chunks = (await (found.length ? query : query.limit(1))) as ChunkText[];
  const links = (chunks.length ? placeLinks(found, chunks) : []).flatMap(({ link, chunkId }) =>
    linkTargetKeys(link.target, link.syntax, source.origin_url).map((key) => ({
      source_id: sourceId,
      chunk_id: chunkId,
      syntax: link.syntax,
      target: link.target.slice(0, 2_000),
      target_key: key,
      anchor: link.anchor.slice(0, 500),
    })),
  );
  const names = sourceNames(source, chunks[0]?.content ?? '').map((row) => ({ source_id: sourceId, ...row }));
  await writer.transaction(async (trx) => {
    await trx('source_names').where({ source_id: sourceId }).delete();
    await trx('document_links').where({ source_id: sourceId }).delete();
    await insertRows(trx, 'source_names', ['source_id', 'kind', 'name', 'name_key'], names);
    await insertRows(
      trx,
      'document_links',
      ['source_id', 'chunk_id', 'syntax', 'target', 'target_key', 'anchor'],
      links,
    );
  });
}
