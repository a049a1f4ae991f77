import type { Knex } from 'knex';

/**
 * The one indexing hook every node write goes through, inside the write's transaction, so the
 * full-text index never disagrees with the nodes (vectors join here when embeddings exist).
 */
export async function indexNode(db: Knex, node: { id: string; label: string; properties: Record<string, unknown> }): Promise<void> {
  await db('fts_nodes').where({ node_id: node.id }).delete();
  await db('fts_nodes').insert({ node_id: node.id, label: node.label, body: propertyText(node.properties) });
}

export async function unindexNodes(db: Knex, nodeIds: string[]): Promise<void> {
  for (let start = 0; start < nodeIds.length; start += 500) {
    await db('fts_nodes').whereIn('node_id', nodeIds.slice(start, start + 500)).delete();
  }
}

/** Every property value as searchable text: strings as they are, everything else as JSON. */
export function propertyText(properties: Record<string, unknown>): string {
  return Object.values(properties)
    .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
    .join(' ');
}
