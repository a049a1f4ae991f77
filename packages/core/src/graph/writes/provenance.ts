import type { Knex } from 'knex';
import { insertIgnoringDuplicates, insertRows, type Db } from '../../storage/index.ts';

/**
 * Which sources stand behind the graph: `node_sources`, `edge_sources` and `template_sources`, written in
 * the caller's transaction (a commit, an import, a source's removal).
 */

export type NodeSourceLink = { node_id: string; source_id: string };
export type EdgeSourceLink = { edge_id: string; source_id: string };

const idSlice = 500;

/** Records that sources contributed nodes; a link already there stays. */
export async function linkNodeSources(trx: Db, links: NodeSourceLink[]): Promise<void> {
  await insertRows(trx, 'node_sources', ['node_id', 'source_id'], links, 'INSERT OR IGNORE');
}

/** Records that sources contributed edges; a link already there stays. */
export async function linkEdgeSources(trx: Db, links: EdgeSourceLink[]): Promise<void> {
  await insertRows(trx, 'edge_sources', ['edge_id', 'source_id'], links, 'INSERT OR IGNORE');
}

/**
 * Records which templates a source's graph uses (`template_sources`), like `node_sources` for nodes:
 * the templates of every node and edge the source contributed, whoever created them.
 */
export async function linkSourceTemplates(trx: Db, sourceId: string): Promise<void> {
  await insertIgnoringDuplicates(
    trx,
    `INTO template_sources (template_id, source_id)
     SELECT DISTINCT n.template_id, ? FROM node_sources ns JOIN graph_nodes n ON n.id = ns.node_id WHERE ns.source_id = ?
     UNION SELECT DISTINCT e.template_id, ? FROM edge_sources es JOIN graph_edges e ON e.id = es.edge_id WHERE es.source_id = ?`,
    [sourceId, sourceId, sourceId, sourceId],
  );
}

/**
 * Takes back what a source contributed to the graph: its links go, with the extracted nodes and edges
 * no other source contributed, and its use of templates (`releaseSourceTemplates`). Returns the ids of
 * the nodes and edges deleted.
 */
export async function removeSourceGraph(trx: Db, sourceId: string): Promise<{ nodes: string[]; edges: string[] }> {
  const edges = await dropOwned(trx, sourceId, 'edge');
  const nodes = await dropOwned(trx, sourceId, 'node');
  await releaseSourceTemplates(trx, sourceId);
  return { nodes, edges };
}

const inSlices = async <T>(items: T[], work: (slice: T[]) => Promise<unknown>) => {
  for (let start = 0; start < items.length; start += idSlice) await work(items.slice(start, start + idSlice));
};

async function dropOwned(trx: Db, sourceId: string, kind: 'node' | 'edge'): Promise<string[]> {
  const links = `${kind}_sources`;
  const column = `${kind}_id`;
  const table = kind === 'node' ? 'graph_nodes' : 'graph_edges';
  const touched = ((await trx(links).where({ source_id: sourceId }).select(column)) as Record<string, string>[]).map(
    (row) => row[column],
  );
  await trx(links).where({ source_id: sourceId }).delete();
  const owned: string[] = [];
  await inSlices(touched, async (ids) => {
    const rows = (await trx(table)
      .whereIn('id', ids)
      .where({ extracted: true })
      .whereNotExists(trx(links).whereRaw(`${links}.${column} = ${table}.id`))
      .select('id')) as { id: string }[];
    owned.push(...rows.map((row) => row.id));
  });
  await inSlices(owned, (ids) => trx(table).whereIn('id', ids).delete());
  return owned;
}

const unused = (trx: Db, query: Knex.QueryBuilder) =>
  query
    .whereNotExists(trx('graph_nodes').whereRaw('graph_nodes.template_id = graph_templates.id'))
    .whereNotExists(trx('graph_edges').whereRaw('graph_edges.template_id = graph_templates.id'));

/**
 * Takes back a source's use of templates: its links go, and a template extraction created is deleted
 * once no other source uses it and no node or edge is typed by it. A template made for the source itself
 * (created with its `source_id`) goes with it once unused. System and user templates otherwise stay.
 */
async function releaseSourceTemplates(trx: Db, sourceId: string): Promise<void> {
  const linked = (await trx('template_sources').where({ source_id: sourceId }).pluck('template_id')) as string[];
  await trx('template_sources').where({ source_id: sourceId }).delete();
  await inSlices(linked, (ids) =>
    unused(
      trx,
      trx('graph_templates')
        .whereIn('id', ids)
        .where({ extracted: true, is_system: false })
        .whereNotExists(trx('template_sources').whereRaw('template_sources.template_id = graph_templates.id')),
    ).delete(),
  );
  await unused(trx, trx('graph_templates').where({ source_id: sourceId, is_system: false })).delete();
}
