/**
 * What the corpus model reads of tables other features own: the sources' `document_chunks` (the text it
 * learns from) and the graph's `graph_nodes` (whose vectors it makes anew). Only reads happen here.
 */
import type { Db } from '../../../storage/index.ts';

export interface ChunkText {
  rowid: number;
  id: string;
  content: string;
}

/** Up to `limit` chunks after rowid `after`, in rowid order. */
export async function chunksAfter(db: Db, after: number, limit: number): Promise<ChunkText[]> {
  return (await db('document_chunks')
    .where('rowid', '>', after)
    .orderBy('rowid')
    .limit(limit)
    .select('rowid', 'id', 'content')) as ChunkText[];
}

/** Up to `limit` node ids after rowid `after`, in rowid order. */
export async function nodesAfter(db: Db, after: number, limit: number): Promise<{ rowid: number; id: string }[]> {
  return (await db('graph_nodes').where('rowid', '>', after).orderBy('rowid').limit(limit).select('rowid', 'id')) as {
    rowid: number;
    id: string;
  }[];
}

/** How many chunks have a rowid above `after`. */
export async function chunkCountAfter(db: Db, after: number): Promise<number> {
  const row = (await db('document_chunks').where('rowid', '>', after).count({ n: '*' }).first()) as { n: number };
  return Number(row.n);
}
