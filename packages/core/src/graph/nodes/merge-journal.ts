import { randomBytes } from 'node:crypto';
import { selectRows, type Db } from '../../storage/index.ts';
import '../duplicates/tables.ts';
import { placeholders } from './sql.ts';
import { userVectorModel } from './vectors.ts';

/**
 * The graph's rows a node merge changes, as they were, so an undo can put them back exactly: the kept and
 * merged nodes, every edge touching them, their source links, tags and vectors, and the nodes whose
 * properties referred to a merged node. Rows keep their rowids, so the restored graph reads in the same order (and the
 * full-text rows, keyed by a node's rowid, come back where they were).
 */
export interface GraphRows {
  nodes: Row[];
  edges: Row[];
  nodeSources: Row[];
  edgeSources: Row[];
  vectors: Row[];
  referrers: Row[];
  /** Absent from journals written before entity tags. */
  nodeTags?: Row[];
}

export type Row = Record<string, unknown>;

const idBatch = 400;

export function newMergeId(): string {
  return `merge_${randomBytes(12).toString('hex')}`;
}

/** Nodes other than `excluded` whose properties name one of `ids` (node references). */
export async function referringNodeIds(trx: Db, ids: string[], excluded: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const id of ids) {
    const rows = (await trx('graph_nodes').where('properties', 'like', `%"${id}"%`).select('id')) as { id: string }[];
    for (const row of rows) if (!excluded.includes(row.id)) found.add(row.id);
  }
  return [...found].sort();
}

async function rowsWhereIn(trx: Db, table: string, column: string, ids: string[], columns = '*'): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < ids.length; start += idBatch) {
    const batch = ids.slice(start, start + idBatch);
    rows.push(
      ...(await selectRows<Row>(
        trx,
        `SELECT rowid AS "rowid", ${columns} FROM ${table} WHERE ${column} IN (${placeholders(batch.length)}) ORDER BY rowid`,
        batch,
      )),
    );
  }
  return rows;
}

/** The rows of `nodeIds`, their edges, links and vectors, and of the referring nodes, as they are now. */
export async function captureRows(trx: Db, nodeIds: string[], referrerIds: string[]): Promise<GraphRows> {
  const marks = placeholders(nodeIds.length);
  const edges = await selectRows<Row>(
    trx,
    `SELECT rowid AS "rowid", * FROM graph_edges WHERE source_node_id IN (${marks}) OR target_node_id IN (${marks}) ORDER BY rowid`,
    [...nodeIds, ...nodeIds],
  );
  const vectors = (
    await rowsWhereIn(trx, 'node_embeddings', 'node_id', nodeIds, 'node_id, model, dimensions, vector')
  ).map(({ rowid: _rowid, vector, ...row }) => ({ ...row, vector: (vector as Buffer).toString('base64') }));
  return {
    nodes: await rowsWhereIn(trx, 'graph_nodes', 'id', nodeIds),
    edges,
    nodeSources: await rowsWhereIn(trx, 'node_sources', 'node_id', nodeIds),
    edgeSources: await rowsWhereIn(
      trx,
      'edge_sources',
      'edge_id',
      edges.map((edge) => edge.id as string),
    ),
    vectors,
    referrers: await rowsWhereIn(trx, 'graph_nodes', 'id', referrerIds, 'id, properties'),
    nodeTags: await tagLinksOf(trx, nodeIds),
  };
}

/** The tag assignments of `nodeIds` (a link table without rowids on PostgreSQL), in a stable order. */
async function tagLinksOf(trx: Db, nodeIds: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < nodeIds.length; start += idBatch)
    rows.push(
      ...(await trx('node_tag_links')
        .whereIn('node_id', nodeIds.slice(start, start + idBatch))
        .orderBy(['node_id', 'tag_id'])
        .select('node_id', 'tag_id')),
    );
  return rows;
}

/**
 * A vector the embedder made is not an edit: the merge itself sends the kept node to be embedded again
 * when its text changed, and an undo puts the earlier vector back anyway. Only a client's vector, and
 * the node's other columns, tell of a change an undo would lose.
 */
const isClientVector = (vector: Row) => vector.model === userVectorModel;
const withoutDerivedVector = ({ embedding: _embedding, ...node }: Row): Row => node;

/** What differs between the rows as a merge left them and as they are now, in words; empty when nothing. */
export function changesSince(after: GraphRows, now: GraphRows): string[] {
  const same = (a: Row[], b: Row[]) => JSON.stringify(a) === JSON.stringify(b);
  const changes: string[] = [];
  if (!now.nodes.length) return ['the kept node was deleted'];
  if (!same(after.nodes.map(withoutDerivedVector), now.nodes.map(withoutDerivedVector)))
    changes.push('the kept node was edited (label, type, properties or position)');
  if (!same(after.edges, now.edges)) changes.push('edges of the kept node were added, removed or changed');
  if (!same(after.nodeSources, now.nodeSources) || !same(after.edgeSources, now.edgeSources))
    changes.push('the sources linked to the kept node or its edges changed');
  if (after.nodeTags && now.nodeTags && !same(after.nodeTags, now.nodeTags))
    changes.push("the kept node's tags changed");
  if (!same(after.vectors.filter(isClientVector), now.vectors.filter(isClientVector)))
    changes.push("the kept node's embedding was set by a client");
  if (!same(after.referrers, now.referrers))
    changes.push('a node that referred to a merged node was edited or deleted');
  return changes;
}

/**
 * Puts `before` back over the graph a merge left (checked unchanged since): the kept node's row, the
 * merged nodes, every edge (re-pointed, re-created or restored in place), source links, vectors and the
 * referring nodes' properties. Edges left untouched by the merge are not rewritten, so what hangs on
 * them stays. Degrees are the recorded ones.
 */
export async function restoreRows(trx: Db, before: GraphRows, keptId: string): Promise<void> {
  const [kept, ...merged] = orderKeptFirst(before.nodes, keptId);
  const { rowid: _keptRowid, id: _keptId, ...keptColumns } = kept;
  await updateRow(trx, 'graph_nodes', keptId, keptColumns);
  for (const node of merged) await insertRow(trx, 'graph_nodes', { ...node, degree: 0 });

  const current = new Map(
    (
      await rowsWhereIn(
        trx,
        'graph_edges',
        'id',
        before.edges.map((edge) => edge.id as string),
      )
    ).map((edge) => [edge.id, edge]),
  );
  for (const edge of before.edges) {
    const now = current.get(edge.id);
    if (!now) await insertRow(trx, 'graph_edges', edge);
    else if (JSON.stringify(now) !== JSON.stringify(edge)) {
      const { rowid: _rowid, id, ...columns } = edge;
      await updateRow(trx, 'graph_edges', id as string, columns);
    }
  }

  const nodeIds = before.nodes.map((node) => node.id as string);
  await replaceLinks(trx, 'node_sources', 'node_id', nodeIds, before.nodeSources);
  await replaceLinks(
    trx,
    'edge_sources',
    'edge_id',
    before.edges.map((edge) => edge.id as string),
    before.edgeSources,
  );
  if (before.nodeTags) {
    // A tag deleted since the merge is not brought back, nor its assignments.
    const tagIds = [...new Set(before.nodeTags.map((link) => link.tag_id as string))];
    const live = new Set<string>(tagIds.length ? await trx('node_tags').whereIn('id', tagIds).pluck('id') : []);
    await replaceLinks(
      trx,
      'node_tag_links',
      'node_id',
      nodeIds,
      before.nodeTags.filter((link) => live.has(link.tag_id as string)),
    );
  }
  await restoreVectors(trx, nodeIds, before.vectors);
  for (const referrer of before.referrers)
    await trx('graph_nodes')
      .where({ id: referrer.id as string })
      .update({ properties: referrer.properties as string });
  for (const node of before.nodes)
    await trx('graph_nodes')
      .where({ id: node.id as string })
      .update({ degree: node.degree as number });
}

function orderKeptFirst(nodes: Row[], keptId: string): Row[] {
  return [...nodes.filter((node) => node.id === keptId), ...nodes.filter((node) => node.id !== keptId)];
}

async function insertRow(trx: Db, table: string, row: Row): Promise<void> {
  const columns = Object.keys(row);
  await trx.raw(
    `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${placeholders(columns.length)})`,
    columns.map((column) => row[column] as never),
  );
}

async function updateRow(trx: Db, table: string, id: string, columns: Row): Promise<void> {
  const names = Object.keys(columns);
  await trx.raw(`UPDATE ${table} SET ${names.map((name) => `"${name}" = ?`).join(', ')} WHERE id = ?`, [
    ...names.map((name) => columns[name] as never),
    id,
  ]);
}

async function replaceLinks(trx: Db, table: string, column: string, ids: string[], rows: Row[]): Promise<void> {
  for (let start = 0; start < ids.length; start += idBatch) {
    const batch = ids.slice(start, start + idBatch);
    await trx.raw(`DELETE FROM ${table} WHERE ${column} IN (${placeholders(batch.length)})`, batch);
  }
  for (const row of rows) await insertRow(trx, table, row);
}

/**
 * Vectors as they were: a node's row is rewritten only when it differs, so the vector index re-reads only
 * what changed (a rewritten row gets a new rowid, the write sequence its readers follow).
 */
async function restoreVectors(trx: Db, nodeIds: string[], vectors: Row[]): Promise<void> {
  const now = new Map(
    (await rowsWhereIn(trx, 'node_embeddings', 'node_id', nodeIds, 'node_id, model, dimensions, vector')).map(
      ({ rowid: _rowid, vector, ...row }) => [row.node_id, { ...row, vector: (vector as Buffer).toString('base64') }],
    ),
  );
  const wanted = new Map(vectors.map((row) => [row.node_id, row]));
  for (const id of nodeIds) {
    const [is, was] = [now.get(id), wanted.get(id)];
    if (JSON.stringify(is) === JSON.stringify(was)) continue;
    if (is) await trx('node_embeddings').where({ node_id: id }).delete();
    if (was)
      await trx('node_embeddings').insert({
        node_id: id,
        model: was.model as string,
        dimensions: was.dimensions as number,
        vector: Buffer.from(was.vector as string, 'base64'),
      });
  }
}
