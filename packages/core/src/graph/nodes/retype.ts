import { Invalid, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { referenceTypes } from '../templates/property-types.ts';
import { parseJsonObject } from './sql.ts';
import { checkTemplate, findTemplate, type TemplateRules } from './template-rules.ts';

type Loc = (string | number)[];

/**
 * The template a node's PATCH checks its properties against: its own, or the one it is retyped to.
 * Retyping is refused (422 on `template_id`) when the new template is not a node template, or when
 * another node's reference property names this node and accepts only other types.
 */
export async function templateAfterUpdate(
  db: Db,
  node: { id: string; template_id: string },
  templateId: string | undefined,
  at: Loc,
): Promise<TemplateRules> {
  if (templateId === undefined || templateId === node.template_id) {
    const own = await findTemplate(db, node.template_id);
    if (!own) throw NotFound.resource('template', node.template_id);
    return own;
  }
  const loc = [...at, 'template_id'];
  const template = checkTemplate(await findTemplate(db, templateId), templateId, 'node', loc);
  const refusals = await referencesRefusing(db, node.id, templateId);
  if (refusals.length) {
    throw new Invalid(
      refusals.map((msg) => ({ loc, msg, type: 'node_type' })),
      `Other nodes reference this node through properties that do not accept template '${templateId}'`,
    );
  }
  return template;
}

/** What refuses `templateId` for `nodeId`: each reference property of another node naming it whose allowed types exclude it. */
async function referencesRefusing(db: Db, nodeId: string, templateId: string): Promise<string[]> {
  const referrers = (await db('graph_nodes')
    .whereNot('id', nodeId)
    .where('properties', 'like', `%"${nodeId}"%`)
    .select('id', 'label', 'template_id', 'properties')) as {
    id: string;
    label: string;
    template_id: string;
    properties: string;
  }[];
  const refusals: string[] = [];
  for (const referrer of referrers) {
    const properties = parseJsonObject(referrer.properties) ?? {};
    for (const definition of (await findTemplate(db, referrer.template_id))?.definitions ?? []) {
      const allowed = definition.allowed_node_types ?? [];
      if (!referenceTypes.has(definition.property_type) || !allowed.length || allowed.includes(templateId)) continue;
      const value = properties[definition.name];
      if (value !== nodeId && !(Array.isArray(value) && value.includes(nodeId))) continue;
      refusals.push(
        `Property '${definition.name}' of node '${referrer.label}' (${referrer.id}) accepts only ${allowed.join(', ')}`,
      );
    }
  }
  return refusals;
}
