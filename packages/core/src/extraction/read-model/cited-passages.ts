/**
 * What giving citations back reads of the sources feature's tables (`sources`, `document_chunks`): which of
 * the sources and passages they cite still exist.
 */
import type { Db } from '../../storage/index.ts';

export interface ExistingPassages {
  sources: Set<string>;
  chunks: Set<string>;
}

export async function existingPassages(db: Db, sourceIds: string[], chunkIds: string[]): Promise<ExistingPassages> {
  const ids = async (table: 'sources' | 'document_chunks', wanted: string[]) =>
    new Set(
      wanted.length
        ? (
            (await db(table)
              .whereIn('id', [...new Set(wanted)])
              .select('id')) as { id: string }[]
          ).map((row) => row.id)
        : [],
    );
  return { sources: await ids('sources', sourceIds), chunks: await ids('document_chunks', chunkIds) };
}
