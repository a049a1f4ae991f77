import type { Knex } from 'knex';

const unused = (trx: Knex.Transaction, query: Knex.QueryBuilder) =>
  query
    .whereNotExists(trx('graph_nodes').whereRaw('graph_nodes.template_id = graph_templates.id'))
    .whereNotExists(trx('graph_edges').whereRaw('graph_edges.template_id = graph_templates.id'));

/**
 * Records which templates a source's graph uses (`template_sources`), like `node_sources` for nodes:
 * the templates of every node and edge the source contributed, whoever created them.
 */
export async function linkSourceTemplates(trx: Knex.Transaction, sourceId: string): Promise<void> {
  await trx.raw(
    `INSERT OR IGNORE INTO template_sources (template_id, source_id)
     SELECT DISTINCT n.template_id, ? FROM node_sources ns JOIN graph_nodes n ON n.id = ns.node_id WHERE ns.source_id = ?
     UNION SELECT DISTINCT e.template_id, ? FROM edge_sources es JOIN graph_edges e ON e.id = es.edge_id WHERE es.source_id = ?`,
    [sourceId, sourceId, sourceId, sourceId],
  );
}

/**
 * Takes back a source's use of templates: its links go, and a template extraction created is deleted
 * once no other source uses it and no node or edge is typed by it. A template made for the source itself
 * (created with its `source_id`) goes with it once unused. System and user templates otherwise stay.
 */
export async function releaseSourceTemplates(trx: Knex.Transaction, sourceId: string): Promise<void> {
  const linked = (await trx('template_sources').where({ source_id: sourceId }).pluck('template_id')) as string[];
  await trx('template_sources').where({ source_id: sourceId }).delete();
  for (let start = 0; start < linked.length; start += 500) {
    await unused(
      trx,
      trx('graph_templates')
        .whereIn('id', linked.slice(start, start + 500))
        .where({ extracted: true, is_system: false })
        .whereNotExists(trx('template_sources').whereRaw('template_sources.template_id = graph_templates.id')),
    ).delete();
  }
  await unused(trx, trx('graph_templates').where({ source_id: sourceId, is_system: false })).delete();
}
