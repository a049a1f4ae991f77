import type { Knex } from 'knex';
import { sourceTemplateId } from '../../graph/ids.ts';
import type { DomainDefinition } from '../../sources/domains/schema.ts';
import { GENERIC_TYPES, typeKey } from '../finalize/types.ts';
import type { FinalizeResult } from '../types.ts';

/** Entities of a generic type (nothing said about them) go to the system Item template. */
const itemTemplateId = 'system_template_item';

/** Template ids by lower-cased type name, for the node and the edge types of one commit. */
export interface SourceTemplates {
  node(type: string): string;
  edge(type: string): string;
}

/**
 * Creates this source's templates (prior-art §2.12: templates are per source) for every type the result
 * uses, from the domain's definition where one matches (description, colour, icon, properties;
 * inverse types for edges) and bare otherwise. Generic entity types use the system Item template.
 */
export async function ensureSourceTemplates(trx: Knex.Transaction, sourceId: string, domain: DomainDefinition, result: FinalizeResult, now: string): Promise<SourceTemplates> {
  const nodeDefinitions = new Map(domain.templates.node_templates.map((template) => [typeKey(template.name), template]));
  const edgeDefinitions = new Map(domain.templates.edge_templates.map((template) => [typeKey(template.name), template]));
  const rows: Record<string, unknown>[] = [];
  const nodeTypes = new Map<string, string>();
  for (const entity of result.entities) {
    const key = typeKey(entity.type);
    if (nodeTypes.has(key)) continue;
    if (GENERIC_TYPES.has(key)) {
      nodeTypes.set(key, itemTemplateId);
      continue;
    }
    const id = sourceTemplateId(sourceId, 'node', key);
    nodeTypes.set(key, id);
    const definition = nodeDefinitions.get(key);
    rows.push({
      id, name: definition?.name ?? entity.type.trim(), template_type: 'node', description: definition?.description ?? `Extracted ${entity.type.trim()} entities`,
      icon: definition?.icon ?? null, color: definition?.color ?? null, is_system: false, source_id: sourceId, created_at: now, updated_at: now,
      properties: JSON.stringify((definition?.properties ?? []).map((property) => ({ ...property, required: false }))),
    });
  }
  const edgeTypes = new Map<string, string>();
  for (const relationship of result.relationships) {
    const key = typeKey(relationship.type);
    if (edgeTypes.has(key)) continue;
    const id = sourceTemplateId(sourceId, 'edge', key);
    edgeTypes.set(key, id);
    const definition = edgeDefinitions.get(key);
    rows.push({
      id, name: definition?.name ?? relationship.type.trim(), template_type: 'edge', description: definition?.description ?? `Extracted ${relationship.type.trim()} relationships`,
      icon: null, color: null, is_system: false, source_id: sourceId, created_at: now, updated_at: now, properties: '[]',
    });
  }
  for (let start = 0; start < rows.length; start += 100) await trx('graph_templates').insert(rows.slice(start, start + 100)).onConflict('id').ignore();
  return {
    node: (type) => nodeTypes.get(typeKey(type)) ?? itemTemplateId,
    edge: (type) => edgeTypes.get(typeKey(type))!,
  };
}
