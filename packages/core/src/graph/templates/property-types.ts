import { propertyTypeNames, type PropertyTypeName } from '@rhizome/contracts/api/templates';

/** The 13 property types a template definition may use (the API schema's enum is the same list). */
export const propertyTypes = propertyTypeNames;
export type PropertyType = PropertyTypeName;

/**
 * A property of a template. Definitions stored before a field existed (or seeded without one, such as
 * the system templates' display_name) read back with the field absent, hence the optional fields.
 */
export interface PropertyDefinition {
  name: string;
  display_name?: string;
  property_type: PropertyType;
  required?: boolean;
  default_value?: unknown;
  enum_values?: string[] | null;
  description?: string | null;
  validation_pattern?: string | null;
  allowed_node_types?: string[] | null;
}

/** Types whose values are strings, so that validation_pattern applies to them. */
export const stringLikeTypes: ReadonlySet<PropertyType> = new Set([
  'string',
  'text',
  'date',
  'datetime',
  'url',
  'email',
  'enum',
]);

/** Types whose values name nodes, so that allowed_node_types applies to them. */
export const referenceTypes: ReadonlySet<PropertyType> = new Set(['node_reference', 'node_reference_list']);

export function isPropertyType(value: unknown): value is PropertyType {
  return typeof value === 'string' && (propertyTypes as readonly string[]).includes(value);
}
