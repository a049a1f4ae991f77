import type { Knex } from 'knex';
import type { TemplateResponse, TemplateTypeName } from '@rhizome/contracts/api/templates';
import { perDialect } from '../../storage/index.ts';
import type { PropertyDefinition, PropertyType } from './property-types.ts';

/** A row of `graph_templates` as SQLite returns it (booleans as 0/1, properties as JSON text). */
export interface TemplateRow {
  id: string;
  name: string;
  template_type: string;
  description: string | null;
  is_system: number | boolean;
  icon: string | null;
  color: string | null;
  properties: string;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A property definition with every field present, as stored and returned. */
export type StoredPropertyDefinition = Required<PropertyDefinition> & { display_name: string; required: boolean };

/** What a write stores: the response fields plus the optional source id. */
export interface TemplateRecord extends Omit<TemplateResponse, 'properties'> {
  properties: StoredPropertyDefinition[];
  source_id: string | null;
}

const table = 'graph_templates';
const columns = [
  'id',
  'name',
  'template_type',
  'description',
  'is_system',
  'icon',
  'color',
  'properties',
  'source_id',
  'created_at',
  'updated_at',
] as const;

/** Names ignoring case: SQLite's NOCASE collation, PostgreSQL's lower(). */
const byNameIgnoringCase = perDialect<[], string>({
  sqlite: () => 'name COLLATE NOCASE',
  postgres: () => 'lower(name)',
});

export function toTemplate(row: TemplateRow): TemplateResponse {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    template_type: row.template_type as TemplateTypeName,
    icon: row.icon ?? null,
    color: row.color ?? null,
    properties: parseDefinitions(row.properties),
    is_system: Boolean(row.is_system),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored JSON list of definitions, each with every field (seeded ones lack display_name). */
export function parseDefinitions(json: string | null): StoredPropertyDefinition[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter((entry): entry is PropertyDefinition => typeof entry === 'object' && entry !== null && 'name' in entry)
    .map(normalizeDefinition);
}

export function normalizeDefinition(definition: PropertyDefinition): StoredPropertyDefinition {
  return {
    name: definition.name,
    display_name: definition.display_name ?? definition.name,
    property_type: definition.property_type as PropertyType,
    required: definition.required ?? false,
    default_value: definition.default_value ?? null,
    enum_values: definition.enum_values ?? null,
    description: definition.description ?? null,
    validation_pattern: definition.validation_pattern ?? null,
    allowed_node_types: definition.allowed_node_types ?? null,
  };
}

export async function findTemplate(db: Knex, id: string): Promise<TemplateResponse | null> {
  const row = await db(table)
    .where({ id })
    .first(...columns);
  return row ? toTemplate(row) : null;
}

export async function listTemplates(
  db: Knex,
  query: { templateType?: TemplateTypeName; offset: number; limit: number },
): Promise<{ templates: TemplateResponse[]; total: number }> {
  const filtered = () => (query.templateType ? db(table).where({ template_type: query.templateType }) : db(table));
  const [{ count }] = await filtered().count({ count: '*' });
  const rows = await filtered()
    .select(...columns)
    .orderByRaw(byNameIgnoringCase(db))
    .orderBy('id')
    .offset(query.offset)
    .limit(query.limit);
  return { templates: rows.map(toTemplate), total: Number(count) };
}

/** Every template of the database (for the embeddings task). */
export async function allTemplates(db: Knex): Promise<TemplateResponse[]> {
  return (
    await db(table)
      .select(...columns)
      .orderBy('id')
  ).map(toTemplate);
}

export async function insertTemplate(db: Knex, template: TemplateRecord): Promise<void> {
  await db(table).insert({ ...template, properties: JSON.stringify(template.properties) });
}

export async function updateTemplateRow(
  db: Knex,
  id: string,
  changes: Partial<Pick<TemplateRecord, 'name' | 'description' | 'icon' | 'color' | 'properties'>> & {
    updated_at: string;
  },
): Promise<void> {
  const { properties, ...rest } = changes;
  await db(table)
    .where({ id })
    .update({ ...rest, ...(properties ? { properties: JSON.stringify(properties) } : {}) });
}

export async function deleteTemplateRow(db: Knex, id: string): Promise<number> {
  return db(table).where({ id }).delete();
}

/** The type ('node' or 'edge') of each of the templates that exist among `ids`. */
export async function templateTypesOf(db: Knex, ids: string[]): Promise<Map<string, string>> {
  const types = new Map<string, string>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += 500) {
    const rows = await db(table)
      .whereIn('id', unique.slice(start, start + 500))
      .select('id', 'template_type');
    for (const row of rows) types.set(row.id, row.template_type);
  }
  return types;
}

/** How many nodes and edges are typed by the template. */
export async function templateUsage(db: Knex, id: string): Promise<{ node_count: number; edge_count: number }> {
  const [nodes] = await db('graph_nodes').where({ template_id: id }).count({ count: '*' });
  const [edges] = await db('graph_edges').where({ template_id: id }).count({ count: '*' });
  return { node_count: Number(nodes.count), edge_count: Number(edges.count) };
}

/** Each template's rowid (its vector label) and the model and dimensions of its stored vector. */
export async function templateVectorStates(
  db: Knex,
): Promise<{ rowid: number; id: string; embedding_model: string | null; embedding_dimensions: number | null }[]> {
  return (await db(table).select('rowid', 'id', 'embedding_model', 'embedding_dimensions')) as {
    rowid: number;
    id: string;
    embedding_model: string | null;
    embedding_dimensions: number | null;
  }[];
}

/** Stores a template's embedding (a JSON float list, as node embeddings are stored). */
export async function storeTemplateEmbedding(db: Knex, id: string, embedding: number[], model: string): Promise<void> {
  await db(table)
    .where({ id })
    .update({ embedding: JSON.stringify(embedding), embedding_model: model, embedding_dimensions: embedding.length });
}
