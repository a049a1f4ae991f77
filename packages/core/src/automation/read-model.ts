import type { Db } from '../storage/index.ts';

/**
 * What workflow tools read of the graph feature's tables: whether a node exists and the identity of its
 * stored vector (`graph_nodes`, `node_embeddings`, for `ai.generate_embedding`), and the templates
 * (`graph_templates`, for `templates.list`). One small query each, run inside a step.
 */

export async function nodeExists(db: Db, nodeId: string): Promise<boolean> {
  return (await db('graph_nodes').where({ id: nodeId }).first('id')) !== undefined;
}

/** The model and size of the node's stored vector; undefined when it has none. */
export async function nodeVectorIdentity(
  db: Db,
  nodeId: string,
): Promise<{ model: string; dimensions: number } | undefined> {
  return (await db('node_embeddings').where({ node_id: nodeId }).first('model', 'dimensions')) as
    { model: string; dimensions: number } | undefined;
}

export async function templateSummaries(db: Db, filter: { templateType?: string; limit: number }) {
  const query = db('graph_templates')
    .select('id', 'name', 'template_type', 'description')
    .orderBy('name')
    .limit(filter.limit);
  if (filter.templateType) query.where({ template_type: filter.templateType });
  return (await query) as { id: string; name: string; template_type: string; description: string | null }[];
}
