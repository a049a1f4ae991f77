import { type ValidationIssue } from '@rhizome/contracts/errors';
import { isPropertyType, referenceTypes, type PropertyDefinition } from './property-types.ts';
import { checkPropertyValue, compilePattern, type NodeTemplateLookup } from './property-values.ts';

export interface DefinitionLookups {
  /** 'node' or 'edge' for each existing template among the ids; absent ids do not exist. */
  templateTypesOf(ids: string[]): Promise<Map<string, string>>;
  /** For default values of node_reference(_list) properties. */
  nodeTemplateOf: NodeTemplateLookup;
}

/**
 * The rules on a template's property definitions that the request schema cannot express: unique names,
 * enum_values for (and only for) enum, a validation_pattern that compiles as a JavaScript RegExp,
 * allowed_node_types for (and only for) node references and naming existing node templates, and a
 * default_value that is itself a valid value. Issues point at `[...loc, index, field]`.
 */
export async function validateDefinitions(
  definitions: PropertyDefinition[],
  lookups: DefinitionLookups,
  loc: (string | number)[] = ['body', 'properties'],
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const at = (index: number, ...rest: (string | number)[]) => [...loc, index, ...rest];
  const referenced = definitions.flatMap((definition) =>
    referenceTypes.has(definition.property_type) ? (definition.allowed_node_types ?? []) : [],
  );
  const templateTypes = referenced.length ? await lookups.templateTypesOf(referenced) : new Map<string, string>();
  const seen = new Map<string, number>();

  for (const [index, definition] of definitions.entries()) {
    const { name, property_type: type } = definition;
    if (!isPropertyType(type)) {
      issues.push({ loc: at(index, 'property_type'), msg: `Unknown property type '${String(type)}'`, type: 'enum' });
      continue;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      issues.push({
        loc: at(index, 'name'),
        msg: `Property name '${name}' is already used by property ${first}`,
        type: 'duplicate',
      });
    } else seen.set(name, index);

    const enumValues = definition.enum_values ?? [];
    if (type === 'enum' && enumValues.length === 0) {
      issues.push({
        loc: at(index, 'enum_values'),
        msg: `Property '${name}' of type enum needs a non-empty enum_values list`,
        type: 'missing',
      });
    } else if (type !== 'enum' && enumValues.length > 0) {
      issues.push({
        loc: at(index, 'enum_values'),
        msg: `Property '${name}' is of type ${type}; only enum properties have enum_values`,
        type: 'not_allowed',
      });
    }

    const pattern = definition.validation_pattern;
    const patternOk = pattern === undefined || pattern === null || compilePattern(pattern) !== null;
    if (!patternOk) {
      issues.push({
        loc: at(index, 'validation_pattern'),
        msg: `Property '${name}' has a validation_pattern that is not a valid regular expression`,
        type: 'pattern',
      });
    }

    const allowed = definition.allowed_node_types ?? [];
    let allowedOk = true;
    if (!referenceTypes.has(type) && allowed.length > 0) {
      allowedOk = false;
      issues.push({
        loc: at(index, 'allowed_node_types'),
        msg: `Property '${name}' is of type ${type}; only node_reference and node_reference_list properties have allowed_node_types`,
        type: 'not_allowed',
      });
    }
    if (referenceTypes.has(type)) {
      for (const [position, templateId] of allowed.entries()) {
        const kind = templateTypes.get(templateId);
        if (kind === 'node') continue;
        allowedOk = false;
        issues.push({
          loc: at(index, 'allowed_node_types', position),
          msg:
            kind === undefined
              ? `Template '${templateId}' does not exist`
              : `Template '${templateId}' is an ${kind} template, not a node template`,
          type: kind === undefined ? 'not_found' : 'template_type',
        });
      }
    }

    const fallback = definition.default_value;
    // A default is checked only against a definition that is itself sound, so one mistake is one issue.
    const definitionSound = patternOk && allowedOk && (type !== 'enum' || enumValues.length > 0);
    if (fallback !== undefined && fallback !== null && definitionSound) {
      const problems = await checkPropertyValue(
        definition,
        fallback,
        at(index, 'default_value'),
        lookups.nodeTemplateOf,
      );
      for (const problem of problems) issues.push({ ...problem, msg: `default_value: ${problem.msg}` });
    }
  }
  return issues;
}
