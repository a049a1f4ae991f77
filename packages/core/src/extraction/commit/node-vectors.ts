import type { Db } from '../../storage/connection.ts';

const batchSize = 256;

/** What a node's vector is made from: its label and description (the text a search would match). */
export function nodeVectorText(label: string, properties: Record<string, unknown>): string {
  const description = typeof properties.description === 'string' ? properties.description : '';
  return description ? `${label}. ${description}` : label;
}

/**
 * Stores an embedding on each committed node (`graph_nodes.embedding`), in batches through the
 * embedding port. Runs after the commit's transaction: a provider that fails leaves the nodes without
 * one (the search index embeds those later) rather than failing the commit.
 */
export async function embedNodes(db: Db, nodeIds: string[], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<number> {
  let embedded = 0;
  for (let start = 0; start < nodeIds.length; start += batchSize) {
    const rows = (await db('graph_nodes').whereIn('id', nodeIds.slice(start, start + batchSize)).select('id', 'label', 'properties')) as { id: string; label: string; properties: string }[];
    const vectors = await embed(rows.map((row) => nodeVectorText(row.label, JSON.parse(row.properties) as Record<string, unknown>)));
    await db.transaction(async (trx) => {
      for (const [index, row] of rows.entries()) {
        await trx('graph_nodes').where({ id: row.id }).update({ embedding: JSON.stringify(Array.from(vectors[index], (value) => Math.round(value * 1e6) / 1e6)) });
      }
    });
    embedded += rows.length;
  }
  return embedded;
}
