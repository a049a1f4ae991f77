import { Conflict, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import type { NodeMergeRow } from '../duplicates/tables.ts';
import { missingSources } from '../duplicates/read-model.ts';
import type { Window } from '../items.ts';
import { indexNode } from '../search-index.ts';
import { captureRows, changesSince, restoreRows, type GraphRows } from './merge-journal.ts';
import type { CitationRows, MergedCitations } from './merge.ts';
import { parseJsonObject } from './sql.ts';

const dayMs = 24 * 60 * 60 * 1000;

export interface MergeRecord {
  merge_id: string;
  kept_node_id: string;
  kept_label: string;
  merged: { id: string; label: string }[];
  merged_at: string;
  undoable: boolean;
  expires_at: string;
}

export interface MergeJournalEntry {
  mergeId: string;
  keptId: string;
  before: GraphRows;
  after: GraphRows;
  /** The citations the merge changed or removed, as they were. */
  citations: CitationRows;
  retentionDays: number;
}

/** Stores a merge with its rows before and after, and forgets merges past their retention window. */
export async function recordMerge(trx: Db, entry: MergeJournalEntry): Promise<void> {
  const now = new Date();
  await forgetExpired(trx, now);
  const label = (id: string) => String(entry.before.nodes.find((node) => node.id === id)?.label ?? '');
  const mergedIds = entry.before.nodes.map((node) => node.id as string).filter((id) => id !== entry.keptId);
  await trx('node_merges').insert({
    id: entry.mergeId,
    kept_node_id: entry.keptId,
    kept_label: label(entry.keptId),
    merged: JSON.stringify(mergedIds.map((id) => ({ id, label: label(id) }))),
    before: JSON.stringify(entry.before),
    after: JSON.stringify(entry.after),
    citations: JSON.stringify(entry.citations),
    merged_at: now.toISOString(),
    expires_at: new Date(now.getTime() + entry.retentionDays * dayMs).toISOString(),
  });
}

async function forgetExpired(db: Db, now: Date): Promise<void> {
  await db('node_merges').where('expires_at', '<=', now.toISOString()).delete();
}

/** The merges still kept, newest first. */
export async function listMerges(db: Db, window: Window): Promise<{ items: MergeRecord[]; total: number }> {
  const now = new Date();
  await forgetExpired(db, now);
  const [{ total }] = await db('node_merges').count({ total: '*' });
  const rows = await db('node_merges')
    .select('id', 'kept_node_id', 'kept_label', 'merged', 'merged_at', 'expires_at', 'undone_at')
    .orderBy([
      { column: 'merged_at', order: 'desc' },
      { column: 'rowid', order: 'desc' },
    ])
    .limit(window.limit)
    .offset(window.offset);
  return {
    items: rows.map((row) => ({
      merge_id: row.id,
      kept_node_id: row.kept_node_id,
      kept_label: row.kept_label,
      merged: JSON.parse(row.merged) as MergeRecord['merged'],
      merged_at: row.merged_at,
      undoable: row.undone_at === null && row.expires_at > now.toISOString(),
      expires_at: row.expires_at,
    })),
    total: Number(total),
  };
}

export interface UndoOutcome {
  merge_id: string;
  restored_node_ids: string[];
  kept_node_id: string;
}

/**
 * Undoes a merge in one transaction, when the graph it left is unchanged: 404 for a merge not kept (unknown
 * or past its retention window), 409 for one undone already or when something changed since that an
 * exact restore would overwrite or cannot bring back (the message says what). The citations the merge
 * moved, united or removed are given back through their owner once the nodes and edges they cite exist
 * again.
 */
export async function undoMerge(db: Db, citations: MergedCitations, mergeId: string): Promise<UndoOutcome> {
  return db.transaction(async (trx) => {
    await forgetExpired(trx, new Date());
    const record = (await trx('node_merges').where({ id: mergeId }).first()) as NodeMergeRow | undefined;
    if (!record) throw NotFound.resource('Merge', mergeId);
    if (record.undone_at) throw new Conflict(`Merge '${mergeId}' was undone at ${record.undone_at}`);
    const before = JSON.parse(record.before) as GraphRows;
    const after = JSON.parse(record.after) as GraphRows;
    const keptId = record.kept_node_id;
    const restored = before.nodes.map((node) => node.id as string).filter((id) => id !== keptId);

    const changes = changesSince(
      after,
      await captureRows(
        trx,
        [keptId],
        after.referrers.map((row) => row.id as string),
      ),
    );
    changes.push(...(await obstacles(trx, before, restored)));
    if (changes.length) {
      throw new Conflict(`Merge '${mergeId}' can no longer be undone exactly: ${changes.join('; ')}`, { changes });
    }

    await restoreRows(trx, before, keptId);
    if (record.citations) await citations.restoreCitations(trx, JSON.parse(record.citations) as CitationRows);
    for (const row of [...before.nodes, ...before.referrers]) {
      const current = (await trx('graph_nodes')
        .where({ id: row.id as string })
        .first('id', 'label', 'properties')) as { id: string; label: string; properties: string };
      await indexNode(trx, { ...current, properties: parseJsonObject(current.properties) ?? {} });
    }
    await trx('node_merges').where({ id: mergeId }).update({ undone_at: new Date().toISOString() });
    return { merge_id: mergeId, restored_node_ids: restored, kept_node_id: keptId };
  });
}

/** What would keep the merged nodes from coming back: their ids taken again, a template or source gone. */
async function obstacles(trx: Db, before: GraphRows, restored: string[]): Promise<string[]> {
  const found: string[] = [];
  const taken = await trx('graph_nodes').whereIn('id', restored).select('id');
  for (const { id } of taken) found.push(`a node with the merged node's id '${id}' exists again`);
  const templateIds = [...new Set([...before.nodes, ...before.edges].map((row) => row.template_id as string))];
  const templates = new Set(
    (await trx('graph_templates').whereIn('id', templateIds).select('id')).map((row) => row.id),
  );
  for (const id of templateIds) if (!templates.has(id)) found.push(`the template '${id}' was deleted`);
  const sourceIds = [
    ...[...before.nodes, ...before.edges].map((row) => row.source_id as string | null),
    ...[...before.nodeSources, ...before.edgeSources].map((row) => row.source_id as string),
  ].filter((id): id is string => !!id);
  for (const id of await missingSources(trx, [...new Set(sourceIds)])) found.push(`the source '${id}' was deleted`);
  return found;
}
