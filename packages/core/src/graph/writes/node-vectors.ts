import { encodeVector, insertRows, type Db } from '../../storage/index.ts';
import { userVectorModel, type NodeVectorRow } from '../nodes/vectors.ts';

/** A node to embed: what its vector is made from, and its rowid (the label of its entry in the vector index). */
export interface NodeToEmbed {
  rowid: number;
  id: string;
  label: string;
  properties: string;
}

/** Inserts vectors of nodes just created (an import restoring a package's vectors) in multi-row statements. */
export async function insertNodeVectors(trx: Db, rows: NodeVectorRow[]): Promise<void> {
  await insertRows(
    trx,
    'node_embeddings',
    ['node_id', 'model', 'dimensions', 'vector'],
    rows.map((row) => ({
      node_id: row.nodeId,
      model: row.model,
      dimensions: row.vector.length,
      vector: encodeVector(row.vector),
    })),
  );
}

/** Those of `ids` that are nodes without a vector a client supplied (which embedding never replaces). */
export async function nodesToEmbed(db: Db, ids: string[]): Promise<NodeToEmbed[]> {
  return (await db('graph_nodes')
    .leftJoin('node_embeddings', 'node_embeddings.node_id', 'graph_nodes.id')
    .whereIn('graph_nodes.id', ids)
    .where((query) => query.whereNull('node_embeddings.model').orWhereNot('node_embeddings.model', userVectorModel))
    .select(
      'graph_nodes.rowid as rowid',
      'graph_nodes.id as id',
      'graph_nodes.label as label',
      'graph_nodes.properties as properties',
    )) as NodeToEmbed[];
}
