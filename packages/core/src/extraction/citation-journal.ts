import type { CitationRows } from '../graph/index.ts';
import { freshRowids, insertRows, type Db } from '../storage/index.ts';
import { existingPassages } from './read-model/cited-passages.ts';

/** The citation tables, each with the column naming the node or edge its citations cite. */
export const targetColumns = { source_citations: 'entity_uri', relationship_citations: 'edge_id' } as const;

export type CitationTable = keyof typeof targetColumns;

type Row = Record<string, unknown>;

const citationTables = Object.keys(targetColumns) as CitationTable[];
const idBatch = 400;

async function rowsWhereIn(trx: Db, table: CitationTable, column: string, ids: (string | number)[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < ids.length; start += idBatch) {
    const batch = ids.slice(start, start + idBatch);
    rows.push(...((await trx(table).whereIn(column, batch).orderBy('rowid').select('rowid', '*')) as Row[]));
  }
  return rows;
}

const idsOf = (rows: Row[]) => rows.map((row) => row.id as string);

/** The citations of `nodeIds` and of `edgeIds`, rowids included, as they are now. */
export async function captureCitations(trx: Db, nodeIds: string[], edgeIds: string[]): Promise<CitationRows> {
  return {
    source_citations: await rowsWhereIn(trx, 'source_citations', targetColumns.source_citations, nodeIds),
    relationship_citations: await rowsWhereIn(
      trx,
      'relationship_citations',
      targetColumns.relationship_citations,
      edgeIds,
    ),
  };
}

/** Of the rows `before` holds, those that changed or went since, as `before` holds them. */
export async function changedCitations(trx: Db, before: CitationRows): Promise<CitationRows> {
  const changed: CitationRows = {};
  for (const table of citationTables) {
    const rows = before[table] ?? [];
    const now = new Map((await rowsWhereIn(trx, table, 'id', idsOf(rows))).map((row) => [row.id, JSON.stringify(row)]));
    changed[table] = rows.filter((row) => now.get(row.id) !== JSON.stringify(row));
  }
  return changed;
}

/**
 * Puts `rows` back as they were. A row still there takes its old values back; a row that went is inserted
 * again with its id and, while no other row took it, its rowid, so listings read in the old order. A row
 * whose source or passage was deleted since stays gone, as it would have gone with them.
 */
export async function restoreCitations(trx: Db, rows: CitationRows): Promise<void> {
  for (const table of citationTables) {
    const wanted = rows[table] ?? [];
    if (!wanted.length) continue;
    const present = new Set(idsOf(await rowsWhereIn(trx, table, 'id', idsOf(wanted))));
    for (const { rowid: _rowid, id, ...columns } of wanted.filter((row) => present.has(row.id as string))) {
      await trx(table)
        .where({ id: id as string })
        .update(columns);
    }
    const gone = wanted.filter((row) => !present.has(row.id as string));
    if (!gone.length) continue;
    const passages = await existingPassages(
      trx,
      gone.map((row) => row.source_id as string),
      gone.flatMap((row) => (row.chunk_id ? [row.chunk_id as string] : [])),
    );
    const returning = gone.filter(
      (row) =>
        passages.sources.has(row.source_id as string) && (!row.chunk_id || passages.chunks.has(row.chunk_id as string)),
    );
    const rowids = returning.map((row) => row.rowid as number);
    const takenRowids = new Set((await rowsWhereIn(trx, table, 'rowid', rowids)).map((row) => row.rowid));
    const fresh = await freshRowids(trx, table, returning.filter((row) => takenRowids.has(row.rowid)).length);
    const inserted = returning.map((row) => (takenRowids.has(row.rowid) ? { ...row, rowid: fresh.shift() } : row));
    if (inserted.length) await insertRows(trx, table, Object.keys(inserted[0]), inserted);
  }
}
