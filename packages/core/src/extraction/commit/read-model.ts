import type { PageStart } from '../../sources/index.ts';
import type { Db } from '../../storage/index.ts';

/**
 * What a commit reads of the sources feature's tables (`document_chunks`), inside its transaction:
 * the cited chunks, to place each supporting sentence on its page.
 */

export interface ChunkPages {
  content: string;
  page: number | null;
  pageStarts: PageStart[] | null;
}

const idSlice = 500;

/** The chunks' text and pages, by id: where a chunk runs over a page break, its sentences are on different pages. */
export async function chunkPages(trx: Db, chunkIds: string[]): Promise<Map<string, ChunkPages>> {
  const ids = [...new Set(chunkIds)];
  const chunks = new Map<string, ChunkPages>();
  for (let start = 0; start < ids.length; start += idSlice) {
    const rows = (await trx('document_chunks')
      .whereIn('id', ids.slice(start, start + idSlice))
      .select('id', 'content', 'page_number', 'chunk_metadata')) as {
      id: string;
      content: string;
      page_number: number | null;
      chunk_metadata: string | null;
    }[];
    for (const row of rows) {
      const metadata = row.chunk_metadata ? (JSON.parse(row.chunk_metadata) as { page_starts?: PageStart[] }) : {};
      chunks.set(row.id, { content: row.content, page: row.page_number, pageStarts: metadata.page_starts ?? null });
    }
  }
  return chunks;
}
