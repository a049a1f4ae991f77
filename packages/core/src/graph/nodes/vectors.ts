import type { EmbeddingIdentity } from '../../providers/index.ts';
import { encodeVector, perDialect, selectRows, type Db } from '../../storage/index.ts';
import type { NodeEmbeddingRow } from '../tables.ts';

/**
 * Writes to `node_embeddings`, the source of truth of node vectors: a node's vector is part of the node,
 * so the graph writes it; the search feature builds its indexes from these rows. Rows are replaced, never
 * updated in place, so a rewritten vector gets a new rowid: the write sequence by which vector index
 * readers find what their checkpoint lacks.
 */

/** The model recorded for a vector a client supplied with a node (POST/PATCH /nodes `embedding`). */
export const userVectorModel = 'user';

export interface NodeVectorRow {
  nodeId: string;
  model: string;
  vector: Float32Array;
}

/** Rows per INSERT (4 bindings each). */
const insertBatch = 100;

const valuesOf = (batch: NodeEmbeddingRow[]) => ({
  rows: batch.map(() => '(?, ?, ?, ?)').join(', '),
  bindings: batch.flatMap((row) => [row.node_id, row.model, row.dimensions, row.vector]),
});

/** Each node's row replaced by the last one given for it, under a new rowid. */
const replaceRows = perDialect<[rows: NodeEmbeddingRow[]], Promise<void>>({
  async sqlite(db, rows) {
    for (let start = 0; start < rows.length; start += insertBatch) {
      const { rows: values, bindings } = valuesOf(rows.slice(start, start + insertBatch));
      await db.raw(
        `INSERT OR REPLACE INTO node_embeddings (node_id, model, dimensions, vector) VALUES ${values}`,
        bindings,
      );
    }
  },
  // An upsert would keep the row's rowid: the old row is deleted and the new one takes the next.
  async postgres(db, rows) {
    const last = [...new Map(rows.map((row) => [row.node_id, row])).values()];
    for (let start = 0; start < last.length; start += insertBatch) {
      const batch = last.slice(start, start + insertBatch);
      await db('node_embeddings')
        .whereIn(
          'node_id',
          batch.map((row) => row.node_id),
        )
        .delete();
      const { rows: values, bindings } = valuesOf(batch);
      await db.raw(`INSERT INTO node_embeddings (node_id, model, dimensions, vector) VALUES ${values}`, bindings);
    }
  },
});

/** Vectors the embedder made, with the JSON copy `graph_nodes.embedding` the API shows; run it in a transaction. */
export async function storeNodeVectors(db: Db, rows: NodeVectorRow[]): Promise<void> {
  await replaceRows(
    db,
    rows.map((row) => ({
      node_id: row.nodeId,
      model: row.model,
      dimensions: row.vector.length,
      vector: encodeVector(row.vector),
    })),
  );
  for (const row of rows) {
    await db('graph_nodes')
      .where({ id: row.nodeId })
      .update({ embedding: JSON.stringify(Array.from(row.vector, (value) => Math.round(value * 1e6) / 1e6)) });
  }
}

/**
 * Embeddings a client gave nodes it created (POST /nodes, batch creates). They are recorded with the
 * model `user`: Rhizome cannot know which model made them, so they are searched whenever their
 * dimensions match the configured embedder's, and never overwritten by re-embedding.
 */
export async function storeClientNodeVectors(
  db: Db,
  nodes: { id: string; embedding: number[] | null }[],
): Promise<void> {
  const rows = nodes.flatMap((node) => {
    if (!node.embedding?.length) return [];
    const vector = Float32Array.from(node.embedding);
    return [{ node_id: node.id, model: userVectorModel, dimensions: vector.length, vector: encodeVector(vector) }];
  });
  await replaceRows(db, rows);
}

/** A client set a node's embedding (PATCH /nodes): null or an empty list removes it, so the node lacks one. */
export async function setClientNodeVector(db: Db, nodeId: string, embedding: number[] | null): Promise<void> {
  if (embedding?.length) await storeClientNodeVectors(db, [{ id: nodeId, embedding }]);
  else await db('node_embeddings').where({ node_id: nodeId }).delete();
}

/**
 * The node's label or description changed, so a vector made from them (not one a client supplied) no
 * longer says what the node is: it goes, and the node lacks one until it is embedded again. Returns
 * whether one was dropped.
 */
export async function dropDerivedNodeVector(db: Db, nodeId: string): Promise<boolean> {
  return (await db('node_embeddings').where({ node_id: nodeId }).whereNot({ model: userVectorModel }).delete()) > 0;
}

/** Nodes after `after` (rowid) without a usable vector: none, or one the embedder made with another model or dimensions (a client's is kept). */
export async function nodesLackingVectors(
  db: Db,
  identity: EmbeddingIdentity,
  after: number,
  limit: number,
): Promise<{ rowid: number; id: string }[]> {
  return selectRows<{ rowid: number; id: string }>(
    db,
    `SELECT n.rowid AS rowid, n.id AS id FROM graph_nodes n LEFT JOIN node_embeddings e ON e.node_id = n.id
     WHERE n.rowid > ? AND (e.node_id IS NULL OR (e.model <> ? AND (e.model <> ? OR e.dimensions <> ?)))
     ORDER BY n.rowid LIMIT ?`,
    [after, userVectorModel, identity.model, identity.dimensions, limit],
  );
}
