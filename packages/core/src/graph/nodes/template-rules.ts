import { Invalid, NotFound, describeError } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import type { PropertyDefinition } from '../templates/property-types.ts';
import { validatePropertyValues, withDefaults, type NodeTemplateLookup } from '../templates/property-values.ts';

export type TemplateKind = 'node' | 'edge';

/** What node and edge writes need of a template: its kind and its property definitions. */
export interface TemplateRules {
  id: string;
  template_type: string;
  definitions: PropertyDefinition[];
}

type Loc = (string | number)[];

export async function findTemplate(db: Db, id: string): Promise<TemplateRules | null> {
  const row = await db('graph_templates').where({ id }).first('id', 'template_type', 'properties');
  return row ? { id: row.id, template_type: row.template_type, definitions: parseDefinitions(row.properties) } : null;
}

/**
 * The template of a new node or edge: 404 naming it when it does not exist, 422 on `template_id` when
 * it is of the other kind (a node typed by an edge template, or the reverse).
 */
export function checkTemplate(
  template: TemplateRules | null,
  id: string,
  kind: TemplateKind,
  loc: Loc = ['body', 'template_id'],
): TemplateRules {
  if (!template) throw NotFound.resource('template', id);
  if (template.template_type !== kind) {
    const article = template.template_type === 'edge' ? 'an edge' : `a ${template.template_type}`;
    throw new Invalid(
      [
        {
          loc,
          msg: `Template '${id}' is ${article} template; ${kind === 'node' ? 'a node' : 'an edge'} needs ${kind === 'node' ? 'a node' : 'an edge'} template`,
          type: 'template_type',
        },
      ],
      `Template '${id}' is not ${kind === 'node' ? 'a node' : 'an edge'} template`,
    );
  }
  return template;
}

/** The properties with the template's defaults filled in, or 422 naming each bad field. */
export async function checkedProperties(
  template: TemplateRules,
  properties: Record<string, unknown> | undefined,
  nodeTemplateOf: NodeTemplateLookup,
  loc: Loc = ['body', 'properties'],
): Promise<Record<string, unknown>> {
  const filled = withDefaults(template.definitions, properties ?? {});
  const issues = await validatePropertyValues(template.definitions, filled, nodeTemplateOf, loc);
  if (issues.length) throw new Invalid(issues, `Properties do not match template '${template.id}'`);
  return filled;
}

/** Looks a node's template up in the database (node_reference properties). */
export function nodeTemplateLookup(db: Db): NodeTemplateLookup {
  return async (nodeId) => {
    const row = await db('graph_nodes').where({ id: nodeId }).first('template_id');
    return row?.template_id ?? null;
  };
}

/** 422 for a label that is only white space (the schema already refuses an empty one). */
export function checkLabel(label: string, loc: Loc = ['body', 'label']): void {
  if (!label.trim()) throw new Invalid([{ loc, msg: 'Label must not be blank', type: 'string_too_short' }]);
}

/** The message of a failure as one line, with validation issues spelled out (batch results). */
export function describeFailure(error: unknown): string {
  if (error instanceof Invalid && error.issues.length) {
    return `${error.message}: ${error.issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ')}`;
  }
  return describeError(error);
}

function parseDefinitions(text: string | null): PropertyDefinition[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed)
      ? (parsed.filter(
          (item) => item && typeof item === 'object' && typeof item.name === 'string',
        ) as PropertyDefinition[])
      : [];
  } catch {
    return [];
  }
}
