import { jsonArrayValues, perDialect, selectRows, type Db } from '../storage/index.ts';
import { parseJsonObject } from './nodes/sql.ts';

/** A node as a walk or a ranking names it: its label and template. */
export interface NodeName {
  label: string;
  template_id: string;
}

/** The label and template of each of `ids` that exists. */
export async function nodeNames(db: Db, ids: string[]): Promise<Map<string, NodeName>> {
  const rows: ({ id: string } & NodeName)[] = await db('graph_nodes')
    .whereRaw(`id IN (${jsonArrayValues(db)})`, [JSON.stringify([...new Set(ids)])])
    .select('id', 'label', 'template_id');
  return new Map(rows.map((row) => [row.id, { label: row.label, template_id: row.template_id }]));
}

export interface NameMatch extends NodeName {
  id: string;
  matched: 'label' | 'alias';
}

/** The nodes a name refers to, ignoring case: label matches first, then alias matches, the best-connected first. */
export const resolveName = perDialect<[name: string, limit: number], Promise<NameMatch[]>>({
  sqlite: async (db, name, limit) => {
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
  },
  // Properties are JSON text that PostgreSQL 15 cannot test for validity before a cast, and one malformed
  // row must not fail the lookup: the server keeps the rows holding the name's JSON text, the aliases are
  // read here.
  postgres: async (db, name, limit) => {
    const wanted = name.trim();
    const rows = await selectRows<NodeName & { id: string; degree: number; by_label: number; properties: string }>(
      db,
      `SELECT n.id, n.label, n.template_id, n.degree, lower(n.label) = lower(?) AS by_label, n.properties
       FROM graph_nodes n
       WHERE lower(n.label) = lower(?) OR strpos(lower(n.properties), lower(?)) > 0
       ORDER BY by_label DESC, n.degree DESC`,
      [wanted, wanted, JSON.stringify(wanted).slice(1, -1)],
    );
    const lowered = wanted.toLowerCase();
    const matches: NameMatch[] = [];
    for (const row of rows) {
      if (matches.length >= limit) break;
      const matched = row.by_label ? 'label' : hasAlias(row.properties, lowered) ? 'alias' : null;
      if (matched) matches.push({ id: row.id, label: row.label, template_id: row.template_id, matched });
    }
    return matches;
  },
});

function hasAlias(properties: string, lowered: string): boolean {
  const aliases = parseJsonObject(properties)?.aliases;
  return Array.isArray(aliases) && aliases.some((alias) => String(alias).toLowerCase() === lowered);
}
