import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

interface TemplateRow {
  id: string;
  name: string;
  template_type: 'node' | 'edge';
  description: string | null;
  icon: string | null;
  color: string | null;
  properties: string;
  source_id: string | null;
  is_system: number;
  created_at: string;
}

// A migration must do the same thing whenever it runs, so the naming rules it relies on are frozen here as
// they were at this revision rather than imported from extraction, whose rules may change later.

/** A type name as one key: "FilmDirector", "film_director" and "Film director" are one type. */
const typeKey = (type: string) =>
  type
    .trim()
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();

/** The shared template extraction makes for a type. */
const extractedTemplateId = (templateType: string, key: string) =>
  `tpl_${createHash('sha256').update(`extracted:${templateType}:${key}`).digest('hex').slice(0, 24)}`;

/** How extraction named a source's own template before templates were shared: identifies them exactly. */
const perSourceTemplateId = (sourceId: string, templateType: string, key: string) =>
  `tpl_${createHash('sha256').update(`${sourceId}:${templateType}:${key}`).digest('hex').slice(0, 24)}`;

/**
 * One template per extracted type: templates gain `extracted` (made by extraction, removed once nothing
 * uses them) and `template_sources` records which sources use each, like `node_sources`. The
 * per-source duplicates extraction made before are merged: their nodes and edges move to the system
 * template of that name or to the one shared template of the type, and the duplicates are deleted.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('graph_templates', (table) => {
    table.boolean('extracted').notNullable().defaultTo(false);
  });
  await db.schema.createTable('template_sources', (table) => {
    table.string('template_id').notNullable().references('id').inTable('graph_templates').onDelete('CASCADE');
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.primary(['template_id', 'source_id']);
    table.index(['source_id']);
  });
  const templates = (await db('graph_templates').orderBy('rowid').select()) as TemplateRow[];
  const system = new Map(
    templates.filter((row) => row.is_system).map((row) => [`${row.template_type}:${typeKey(row.name)}`, row.id]),
  );
  const perSource = templates.filter(
    (row) =>
      !row.is_system &&
      row.source_id &&
      row.id === perSourceTemplateId(row.source_id, row.template_type, typeKey(row.name)),
  );
  const targets = new Map<string, string[]>();
  const now = new Date().toISOString();
  for (const row of perSource) {
    const key = typeKey(row.name);
    const target = system.get(`${row.template_type}:${key}`) ?? extractedTemplateId(row.template_type, key);
    if (!targets.has(target)) {
      targets.set(target, []);
      await db('graph_templates')
        .insert({
          id: target,
          name: row.name,
          template_type: row.template_type,
          description: row.description,
          icon: row.icon,
          color: row.color,
          properties: row.properties,
          is_system: false,
          extracted: true,
          source_id: null,
          created_at: row.created_at,
          updated_at: now,
        })
        .onConflict('id')
        .ignore();
    }
    targets.get(target)!.push(row.id);
  }
  for (const [target, duplicates] of targets) {
    for (let start = 0; start < duplicates.length; start += 500) {
      const ids = duplicates.slice(start, start + 500);
      await db('graph_nodes').whereIn('template_id', ids).update({ template_id: target });
      await db('graph_edges').whereIn('template_id', ids).update({ template_id: target });
      await db('graph_templates').whereIn('id', ids).delete();
    }
  }
  await db.raw(`INSERT OR IGNORE INTO template_sources (template_id, source_id)
    SELECT DISTINCT n.template_id, ns.source_id FROM node_sources ns JOIN graph_nodes n ON n.id = ns.node_id
    UNION SELECT DISTINCT e.template_id, es.source_id FROM edge_sources es JOIN graph_edges e ON e.id = es.edge_id`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('template_sources');
  await db.schema.alterTable('graph_templates', (table) => {
    table.dropColumn('extracted');
  });
}
