import { input, select } from '@inquirer/prompts';
import {
  propertyTypeNames,
  type PropertyTypeName,
  type TemplateResponse,
  type TemplateTypeName,
} from '@rhizome/contracts/api/templates';
import { promptContext as context, prompting } from '../prompts.ts';

type PropertyDefinition = TemplateResponse['properties'][number];

const numeric: Partial<Record<PropertyTypeName, (value: number) => boolean>> = {
  integer: Number.isInteger,
  float: Number.isFinite,
};

/** What the operator typed for one property as the value the API takes; undefined leaves it out. */
function propertyValue(property: PropertyDefinition, text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (numeric[property.property_type]) return Number(trimmed);
  if (property.property_type === 'json' || property.property_type === 'node_reference_list')
    return JSON.parse(trimmed) as unknown;
  return trimmed;
}

/** Why a typed value is refused, or true. */
function checked(property: PropertyDefinition, text: string): string | true {
  const trimmed = text.trim();
  if (!trimmed) return property.required ? `${property.display_name} is required` : true;
  const isNumber = numeric[property.property_type];
  if (isNumber && !isNumber(Number(trimmed))) return `${property.display_name} is a ${property.property_type}`;
  if (property.property_type === 'json' || property.property_type === 'node_reference_list') {
    try {
      JSON.parse(trimmed);
    } catch {
      return 'not valid JSON';
    }
  }
  return true;
}

async function askProperty(property: PropertyDefinition): Promise<unknown> {
  const message = `${property.display_name} (${property.property_type}${property.required ? ', required' : ''})`;
  if (property.property_type === 'boolean') {
    const choices = [
      { value: 'true', name: 'yes' },
      { value: 'false', name: 'no' },
      ...(property.required ? [] : [{ value: '', name: 'leave it unset' }]),
    ];
    const chosen = await select({ message, choices }, context);
    return chosen ? chosen === 'true' : undefined;
  }
  if (property.property_type === 'enum' && property.enum_values?.length) {
    const choices = [
      ...property.enum_values.map((value) => ({ value, name: value })),
      ...(property.required ? [] : [{ value: '', name: 'leave it unset' }]),
    ];
    return (await select({ message, choices }, context)) || undefined;
  }
  const text = await input({ message, validate: (value) => checked(property, value) }, context);
  return propertyValue(property, text);
}

/** `graph node create -i`: the template from a list, the label, then each of the template's properties. */
export function askNode(
  templates: readonly TemplateResponse[],
  given: { template?: TemplateResponse; label?: string },
): Promise<{ template: TemplateResponse; label: string; properties: Record<string, unknown> }> {
  return prompting('node creation', async () => {
    const template =
      given.template ??
      (await select(
        {
          message: 'Template',
          choices: templates.map((option) => ({
            value: option,
            name: option.name,
            description: option.description ?? undefined,
          })),
        },
        context,
      ));
    const label =
      given.label ??
      (await input({ message: 'Label', validate: (value) => Boolean(value.trim()) || 'a label is required' }, context));
    const properties: Record<string, unknown> = {};
    for (const property of template.properties) {
      const value = await askProperty(property);
      if (value !== undefined) properties[property.name] = value;
    }
    return { template, label: label.trim(), properties };
  });
}

export interface TemplateAnswers {
  name: string;
  type: TemplateTypeName;
  description?: string;
  properties: { name: string; display_name: string; property_type: PropertyTypeName }[];
}

/** `graph template create -i`: name, kind, description, then properties until an empty name. */
export function askTemplate(given: { name?: string; type?: TemplateTypeName }): Promise<TemplateAnswers> {
  return prompting('template creation', async () => {
    const name =
      given.name ??
      (await input({ message: 'Name', validate: (value) => Boolean(value.trim()) || 'a name is required' }, context));
    const type =
      given.type ??
      (await select<TemplateTypeName>(
        {
          message: 'Kind',
          choices: [
            { value: 'node', name: 'node (an entity type)' },
            { value: 'edge', name: 'edge (a relationship type)' },
          ],
        },
        context,
      ));
    const description = (await input({ message: 'Description (optional)' }, context)).trim() || undefined;
    const properties: TemplateAnswers['properties'] = [];
    for (;;) {
      const propertyName = (await input({ message: 'Property name (empty to finish)' }, context)).trim();
      if (!propertyName) break;
      const propertyType = await select<PropertyTypeName>(
        { message: `Type of ${propertyName}`, choices: propertyTypeNames.map((value) => ({ value, name: value })) },
        context,
      );
      properties.push({ name: propertyName, display_name: propertyName, property_type: propertyType });
    }
    return { name: name.trim(), type, description, properties };
  });
}
