import type { Knex } from 'knex';
import { sourceTemplateId } from '../../graph/ids.ts';
import { typeKey } from '../finalize/types.ts';

const inBatches = async <T>(items: T[], size: number, work: (batch: T[]) => Promise<unknown>) => {
  for (let start = 0; start < items.length; start += size) await work(items.slice(start, start + size));
};

/**
 * Takes back everything a source contributed to the graph (before a re-commit, and when the source is
 * deleted): its entity and relationship citations; the extracted nodes and edges no other source
 * contributed; and its templates, once nothing uses them. A shared node or edge typed by one of this
 * source's templates moves to the same-named template of a remaining contributor (created if needed), so
 * the template can go. Returns the ids of the nodes and edges deleted.
 */
export async function removeContribution(trx: Knex.Transaction, sourceId: string): Promise<{ nodes: string[]; edges: string[] }> {
  await trx('source_citations').where({ source_id: sourceId }).delete();
  await trx('relationship_citations').where({ source_id: sourceId }).delete();
  const edges = await dropOwned(trx, sourceId, 'edge');
  const nodes = await dropOwned(trx, sourceId, 'node');
  await repointShared(trx, sourceId, 'node');
  await repointShared(trx, sourceId, 'edge');
  await trx('graph_templates')
    .where({ source_id: sourceId })
    .whereNotExists(trx('graph_nodes').whereRaw('graph_nodes.template_id = graph_templates.id'))
    .whereNotExists(trx('graph_edges').whereRaw('graph_edges.template_id = graph_templates.id'))
    .delete();
  return { nodes, edges };
}

async function dropOwned(trx: Knex.Transaction, sourceId: string, kind: 'node' | 'edge'): Promise<string[]> {
  const links = `${kind}_sources`;
  const column = `${kind}_id`;
  const table = kind === 'node' ? 'graph_nodes' : 'graph_edges';
  const touched = ((await trx(links).where({ source_id: sourceId }).select(column)) as Record<string, string>[]).map((row) => row[column]);
  await trx(links).where({ source_id: sourceId }).delete();
  const owned: string[] = [];
  await inBatches(touched, 500, async (ids) => {
    const rows = (await trx(table).whereIn('id', ids).where({ extracted: true })
      .whereNotExists(trx(links).whereRaw(`${links}.${column} = ${table}.id`)).select('id')) as { id: string }[];
    owned.push(...rows.map((row) => row.id));
  });
  await inBatches(owned, 500, (ids) => trx(table).whereIn('id', ids).delete());
  return owned;
}

async function repointShared(trx: Knex.Transaction, sourceId: string, kind: 'node' | 'edge'): Promise<void> {
  const table = kind === 'node' ? 'graph_nodes' : 'graph_edges';
  const links = `${kind}_sources`;
  const rows = (await trx(`${table} as item`).join('graph_templates as t', 't.id', 'item.template_id').where('t.source_id', sourceId)
    .select('item.id', 't.id as template_id')) as { id: string; template_id: string }[];
  for (const row of rows) {
    const heir = (await trx(links).where({ [`${kind}_id`]: row.id }).orderBy('source_id').first('source_id')) as { source_id: string } | undefined;
    if (!heir) continue;
    const template = (await trx('graph_templates').where({ id: row.template_id }).first()) as Record<string, unknown>;
    const heirTemplateId = sourceTemplateId(heir.source_id, kind, typeKey(String(template.name)));
    await trx('graph_templates').insert({ ...template, id: heirTemplateId, source_id: heir.source_id }).onConflict('id').ignore();
    await trx(table).where({ id: row.id }).update({ template_id: heirTemplateId });
  }
}
