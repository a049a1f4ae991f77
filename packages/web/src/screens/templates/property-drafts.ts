import type { PropertyTypeName, TemplateResponse } from '@rhizome/contracts/api/templates';

type Definition = TemplateResponse['properties'][number];

/** A property definition as the form edits it: the default value as typed, checked when saving. */
export interface PropertyDraft {
  key: string;
  name: string;
  nameEdited: boolean;
  display_name: string;
  property_type: PropertyTypeName;
  required: boolean;
  defaultText: string;
  enum_values: string[];
  validation_pattern: string;
  description: string;
  allowed_node_types: string[];
}

export const propertyTypeLabels: Record<PropertyTypeName, string> = {
  string: 'Short text',
  text: 'Long text',
  integer: 'Whole number',
  float: 'Decimal number',
  boolean: 'Yes / no',
  date: 'Date',
  datetime: 'Date and time',
  url: 'Web address (URL)',
  email: 'Email address',
  enum: 'One of a list',
  json: 'JSON value',
  node_reference: 'Link to a node',
  node_reference_list: 'Links to nodes',
};

/** The types a validation pattern applies to (the API checks patterns on text values only). */
export const patternTypes: ReadonlySet<PropertyTypeName> = new Set([
  'string',
  'text',
  'date',
  'datetime',
  'url',
  'email',
  'enum',
]);
export const referenceTypes: ReadonlySet<PropertyTypeName> = new Set(['node_reference', 'node_reference_list']);

let counter = 0;
const newKey = () => `property-${++counter}`;

/** A machine name from a display name: "Release date" → release_date. */
export function nameFrom(displayName: string): string {
  return displayName
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function emptyDraft(): PropertyDraft {
  return {
    key: newKey(),
    name: '',
    nameEdited: false,
    display_name: '',
    property_type: 'string',
    required: false,
    defaultText: '',
    enum_values: [],
    validation_pattern: '',
    description: '',
    allowed_node_types: [],
  };
}

function defaultTextOf(definition: Definition): string {
  const value = definition.default_value;
  if (value === null || value === undefined) return '';
  if (definition.property_type === 'json' || definition.property_type === 'node_reference_list')
    return JSON.stringify(value, null, 2);
  return String(value);
}

export function draftOf(definition: Definition): PropertyDraft {
  return {
    key: newKey(),
    name: definition.name,
    nameEdited: true,
    display_name: definition.display_name,
    property_type: definition.property_type,
    required: definition.required,
    defaultText: defaultTextOf(definition),
    enum_values: definition.enum_values ?? [],
    validation_pattern: definition.validation_pattern ?? '',
    description: definition.description ?? '',
    allowed_node_types: definition.allowed_node_types ?? [],
  };
}

/** The default value as the API takes it, or a message saying why the text is not one. */
export function parseDefault(draft: PropertyDraft): { value: unknown } | { error: string } {
  const text = draft.defaultText.trim();
  if (!text) return { value: null };
  switch (draft.property_type) {
    case 'integer': {
      const value = Number(text);
      return Number.isSafeInteger(value) ? { value } : { error: 'Enter a whole number' };
    }
    case 'float': {
      const value = Number(text);
      return Number.isFinite(value) ? { value } : { error: 'Enter a number' };
    }
    case 'boolean':
      return { value: text === 'true' };
    case 'json':
    case 'node_reference_list':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'Enter valid JSON' };
      }
    case 'string':
    case 'text':
      return { value: draft.defaultText };
    default:
      return { value: text };
  }
}

export type DraftErrors = Record<string, Partial<Record<string, string>>>;

/** The definition sent to the API, or the field errors found before sending. */
export function definitionsOf(drafts: PropertyDraft[]): { definitions: Definition[]; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const fail = (key: string, field: string, message: string) => {
    errors[key] = { ...errors[key], [field]: message };
  };
  const definitions = drafts.map((draft) => {
    if (!draft.display_name.trim()) fail(draft.key, 'display_name', 'Give the property a name');
    if (!draft.name.trim()) fail(draft.key, 'name', 'Give the property a key');
    const parsed = parseDefault(draft);
    if ('error' in parsed) fail(draft.key, 'default_value', parsed.error);
    return {
      name: draft.name.trim(),
      display_name: draft.display_name.trim(),
      property_type: draft.property_type,
      required: draft.required,
      default_value: 'value' in parsed ? parsed.value : null,
      enum_values: draft.property_type === 'enum' ? draft.enum_values : null,
      description: draft.description.trim() || null,
      validation_pattern:
        patternTypes.has(draft.property_type) && draft.validation_pattern ? draft.validation_pattern : null,
      allowed_node_types:
        referenceTypes.has(draft.property_type) && draft.allowed_node_types.length ? draft.allowed_node_types : null,
    };
  });
  return { definitions, errors };
}
