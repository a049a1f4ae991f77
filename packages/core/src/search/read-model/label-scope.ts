import { databaseKey, jsonArrayValues, selectRows, type Db } from '../../storage/index.ts';
import type { SearchScope } from '../types.ts';
import { LabelSet } from '../vectors/label-set.ts';
import type { LabelFilter } from '../vectors/port.ts';

/**
 * A search scope as sets of vector labels (rowids), for the HNSW filter callback, which runs
 * synchronously for every candidate and so cannot ask SQLite. Search's read model of the sources
 * feature's `sources` and `document_chunks` and the graph's `graph_nodes` and `node_sources`: raw SQL
 * returning bare rowids, as a scope over a million chunks must be read in one statement. The rules are
 * keyword search's:
 * - chunks of enabled sources only, of the scope's sources when it names some; none under a template
 *   filter (a chunk has no template);
 * - a node with no source at all (made by hand) is visible unless the scope names sources; otherwise at
 *   least one of its sources (`node_sources`, written by extraction, and the row's own `source_id`) must
 *   be enabled and, when the scope names sources, one of them.
 */
export interface LabelScope {
  /** Nothing can match. */
  empty: boolean;
  /** Only these labels, when set (ascending). */
  allowed: number[] | null;
  /** Never these labels. */
  denied: LabelSet | null;
}

const everything: LabelScope = { empty: false, allowed: null, denied: null };
const nothing: LabelScope = { empty: true, allowed: null, denied: null };

export function labelFilter(scope: LabelScope): LabelFilter | undefined {
  const allowed = scope.allowed ? LabelSet.of(scope.allowed) : null;
  const { denied } = scope;
  if (!allowed && !denied) return undefined;
  return (label) => (!allowed || allowed.has(label)) && !denied?.has(label);
}

async function labels(db: Db, sql: string, bindings: (string | number)[]): Promise<number[]> {
  return (await selectRows<{ label: number }>(db, sql, bindings)).map((row) => row.label);
}

/** The disabled sources with what changes when their chunks or nodes do: the key of the cached denied sets. */
async function disabledSources(db: Db): Promise<{ ids: string[]; key: string }> {
  const rows = (await db('sources').where({ enabled: 0 }).orderBy('id').select('id', 'updated_at')) as {
    id: string;
    updated_at: string;
  }[];
  return { ids: rows.map((row) => row.id), key: rows.map((row) => `${row.id}@${row.updated_at}`).join(',') };
}

/** Denied chunk sets by database file and disabled-source key: a large disabled source costs one read, not one per search. */
const deniedChunks = new Map<string, LabelSet>();
const deniedCacheSize = 16;

export async function chunkLabelScope(db: Db, scope: SearchScope): Promise<LabelScope> {
  if (scope.templateId !== null || scope.sourceIds?.length === 0) return nothing;
  if (scope.sourceIds) {
    const allowed = await labels(
      db,
      `SELECT c.rowid AS label FROM document_chunks c JOIN sources s ON s.id = c.source_id
       WHERE s.enabled = TRUE AND c.source_id IN (${jsonArrayValues(db)}) ORDER BY c.rowid`,
      [JSON.stringify(scope.sourceIds)],
    );
    return allowed.length ? { empty: false, allowed, denied: null } : nothing;
  }
  const disabled = await disabledSources(db);
  if (!disabled.ids.length) return everything;
  const key = `${databaseKey(db)}\0${disabled.key}`;
  let denied = deniedChunks.get(key);
  if (!denied) {
    denied = LabelSet.of(
      await labels(db, `SELECT rowid AS label FROM document_chunks WHERE source_id IN (${jsonArrayValues(db)})`, [
        JSON.stringify(disabled.ids),
      ]),
    );
    if (deniedChunks.size >= deniedCacheSize) deniedChunks.delete(deniedChunks.keys().next().value!);
    deniedChunks.set(key, denied);
  }
  return { empty: false, allowed: null, denied };
}

export async function nodeLabelScope(db: Db, scope: SearchScope): Promise<LabelScope> {
  if (scope.sourceIds?.length === 0) return nothing;
  const template = scope.templateId === null ? '' : 'AND n.template_id = ?';
  const templateBinding = scope.templateId === null ? [] : [scope.templateId];
  if (scope.sourceIds) {
    const ids = JSON.stringify(scope.sourceIds);
    const allowed = await labels(
      db,
      `SELECT n.rowid AS label FROM graph_nodes n JOIN sources s ON s.id = n.source_id
         WHERE s.enabled = TRUE AND s.id IN (${jsonArrayValues(db)}) ${template}
       UNION
       SELECT n.rowid AS label FROM node_sources ns JOIN sources s ON s.id = ns.source_id JOIN graph_nodes n ON n.id = ns.node_id
         WHERE s.enabled = TRUE AND ns.source_id IN (${jsonArrayValues(db)}) ${template}
       ORDER BY label`,
      [ids, ...templateBinding, ids, ...templateBinding],
    );
    return allowed.length ? { empty: false, allowed, denied: null } : nothing;
  }
  let allowed: number[] | null = null;
  if (scope.templateId !== null) {
    allowed = await labels(db, 'SELECT rowid AS label FROM graph_nodes n WHERE n.template_id = ? ORDER BY rowid', [
      scope.templateId,
    ]);
    if (!allowed.length) return nothing;
  }
  const disabled = await disabledSources(db);
  if (!disabled.ids.length) return { empty: false, allowed, denied: null };
  // Only nodes a disabled source touched can have no enabled source left.
  const denied = await labels(
    db,
    `WITH disabled(id) AS (${jsonArrayValues(db)})
     SELECT n.rowid AS label FROM graph_nodes n
     WHERE (n.source_id IN (SELECT id FROM disabled) OR n.id IN (SELECT node_id FROM node_sources WHERE source_id IN (SELECT id FROM disabled)))
       AND NOT EXISTS (SELECT 1 FROM sources s WHERE s.id = n.source_id AND s.enabled = TRUE)
       AND NOT EXISTS (SELECT 1 FROM node_sources ns JOIN sources s ON s.id = ns.source_id WHERE ns.node_id = n.id AND s.enabled = TRUE)`,
    [JSON.stringify(disabled.ids)],
  );
  return { empty: false, allowed, denied: denied.length ? LabelSet.of(denied) : null };
}
