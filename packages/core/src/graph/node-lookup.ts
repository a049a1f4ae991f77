import type { Db } from '../storage/index.ts';

/** A node as a walk or a ranking names it: its label and template. */
export interface NodeName {
  label: string;
  template_id: string;
}

/** The label and template of each of `ids` that exists. */
export async function nodeNames(db: Db, ids: string[]): Promise<Map<string, NodeName>> {
  const rows: ({ id: string } & NodeName)[] = await db('graph_nodes')
    .whereRaw('id IN (SELECT value FROM json_each(?))', [JSON.stringify([...new Set(ids)])])
    .select('id', 'label', 'template_id');
  return new Map(rows.map((row) => [row.id, { label: row.label, template_id: row.template_id }]));
}

export interface NameMatch extends NodeName {
  id: string;
  matched: 'label' | 'alias';
}

/** The nodes a name refers to, ignoring case: label matches first, then alias matches, the best-connected first. */
export async function resolveName(db: Db, name: string, limit: number): Promise<NameMatch[]> {
  const wanted = name.trim();
  return (await db.raw(
    `SELECT n.id, n.label, n.template_id, CASE WHEN lower(n.label) = lower(?) THEN 'label' ELSE 'alias' END AS matched
     FROM graph_nodes n
     WHERE lower(n.label) = lower(?)
        OR EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(n.properties) AND json_type(n.properties, '$.aliases') = 'array' THEN json_extract(n.properties, '$.aliases') ELSE '[]' END) a
                   WHERE lower(a.value) = lower(?))
     ORDER BY matched = 'alias', n.degree DESC LIMIT ?`,
    [wanted, wanted, wanted, limit],
  )) as NameMatch[];
}
