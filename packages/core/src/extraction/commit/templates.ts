import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { insertTemplates, templateIdentities, type NewTemplate } from '../../graph/index.ts';
import type { DomainDefinition } from '../../sources/index.ts';
import { GENERIC_TYPES, typeKey } from '../finalize/entity-types.ts';
import type { FinalizeResult } from '../types.ts';

/** Entities of a generic type (nothing said about them) go to the system Item template. */
const itemTemplateId = 'system_template_item';

type TemplateType = 'node' | 'edge';

/** Id of the template extraction creates for a type no existing template is named after: one per type in a database. */
export function extractedTemplateId(templateType: TemplateType, key: string): string {
  return `tpl_${createHash('sha256').update(`extracted:${templateType}:${key}`).digest('hex').slice(0, 24)}`;
}

/** Template ids by type name, for the node and the edge types of one commit. */
export interface TypeTemplates {
  node(type: string): string;
  edge(type: string): string;
}

/**
 * The template already standing for each type name (by `typeKey` of its name): a system template first
 * (so extracted people are `system_template_person`), then the one extraction created, then the oldest
 * a user created.
 */
async function templatesByTypeKey(trx: Knex.Transaction, templateType: TemplateType): Promise<Map<string, string>> {
  const rows = (await templateIdentities(trx))
    .filter((row) => row.template_type === templateType)
    .sort((a, b) => b.is_system - a.is_system || b.extracted - a.extracted);
  const byKey = new Map<string, string>();
  for (const row of rows) if (!byKey.has(typeKey(row.name))) byKey.set(typeKey(row.name), row.id);
  return byKey;
}

interface TypeDefinition {
  name: string;
  description?: string | null;
  icon?: string | null;
  color?: string | null;
  properties?: unknown[];
}

/**
 * One template per entity type and one per relation type, shared by every source that uses it: the
 * existing template named after the type, or a new one made from the domain's definition where one
 * matches (description, colour, icon, properties) and bare otherwise. Generic entity types use the
 * system Item template. Which sources use a template is recorded after the commit (`linkSourceTemplates`).
 */
export async function ensureTypeTemplates(
  trx: Knex.Transaction,
  domain: DomainDefinition,
  result: FinalizeResult,
  now: string,
): Promise<TypeTemplates> {
  const node = await resolve(
    trx,
    'node',
    result.entities.map((entity) => entity.type),
    new Map(domain.templates.node_templates.map((template) => [typeKey(template.name), template])),
    now,
  );
  const edge = await resolve(
    trx,
    'edge',
    result.relationships.map((relationship) => relationship.type),
    new Map(domain.templates.edge_templates.map((template) => [typeKey(template.name), template])),
    now,
  );
  return {
    node: (type) => node.get(typeKey(type)) ?? itemTemplateId,
    edge: (type) => edge.get(typeKey(type))!,
  };
}

async function resolve(
  trx: Knex.Transaction,
  templateType: TemplateType,
  types: string[],
  definitions: Map<string, TypeDefinition>,
  now: string,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (!types.length) return ids;
  const existing = await templatesByTypeKey(trx, templateType);
  const rows: NewTemplate[] = [];
  const noun = templateType === 'node' ? 'entities' : 'relationships';
  for (const type of types) {
    const key = typeKey(type);
    if (ids.has(key)) continue;
    if (templateType === 'node' && GENERIC_TYPES.has(key)) {
      ids.set(key, itemTemplateId);
      continue;
    }
    const found = existing.get(key);
    if (found) {
      ids.set(key, found);
      continue;
    }
    const id = extractedTemplateId(templateType, key);
    ids.set(key, id);
    const definition = definitions.get(key);
    rows.push({
      id,
      name: definition?.name ?? type.trim(),
      template_type: templateType,
      description: definition?.description ?? `Extracted ${type.trim()} ${noun}`,
      icon: definition?.icon ?? null,
      color: definition?.color ?? null,
      is_system: false,
      extracted: true,
      source_id: null,
      created_at: now,
      updated_at: now,
      properties: JSON.stringify(
        (definition?.properties ?? []).map((property) => ({ ...(property as object), required: false })),
      ),
    });
  }
  await insertTemplates(trx, rows, { skipExisting: true });
  return ids;
}
