import { NumberInput, Select, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import type { TemplateResponse } from '@rhizome/contracts/api/templates';

export type PropertyDefinition = TemplateResponse['properties'][number];

/** What a property is edited as: text in the field, turned back into the property's type on save. */
export type Draft = string | number | boolean | string[] | null;

/** The value as the form holds it. */
export function toDraft(definition: PropertyDefinition, value: unknown): Draft {
  if (value === undefined || value === null)
    return definition.property_type === 'boolean'
      ? false
      : definition.property_type === 'node_reference_list'
        ? []
        : '';
  switch (definition.property_type) {
    case 'boolean':
      return value === true;
    case 'integer':
    case 'float':
      return typeof value === 'number' ? value : '';
    case 'node_reference_list':
      return Array.isArray(value) ? value.map(String) : [];
    case 'json':
      return JSON.stringify(value, null, 2);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/**
 * The value the API receives: empty fields are left out (null), numbers stay numbers, JSON is parsed.
 * Text the API should judge (a bad date, an invalid pattern) is sent as typed, so its own error shows at the field.
 */
export function fromDraft(definition: PropertyDefinition, draft: Draft): unknown {
  if (draft === '' || draft === null || (Array.isArray(draft) && draft.length === 0)) return null;
  if (definition.property_type === 'json' && typeof draft === 'string') {
    try {
      return JSON.parse(draft) as unknown;
    } catch {
      return draft;
    }
  }
  return draft;
}

const hints: Partial<Record<PropertyDefinition['property_type'], string>> = {
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DDTHH:MM:SSZ',
  url: 'https://…',
  email: 'name@example.org',
  node_reference: 'entity id',
  json: 'JSON',
};

/** One property of a node, edited with the input its template's type calls for. */
export function PropertyField({
  definition,
  value,
  error,
  onChange,
}: {
  definition: PropertyDefinition;
  value: Draft;
  error?: string;
  onChange: (value: Draft) => void;
}) {
  const common = {
    label: definition.display_name || definition.name,
    description: definition.description ?? undefined,
    required: definition.required,
    error,
    'data-property': definition.name,
  };
  switch (definition.property_type) {
    case 'boolean':
      return (
        <Switch {...common} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />
      );
    case 'integer':
    case 'float':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          allowDecimal={definition.property_type === 'float'}
          onChange={(next) => onChange(next === '' ? '' : Number(next))}
        />
      );
    case 'enum':
      return (
        <Select
          {...common}
          data={definition.enum_values ?? []}
          value={typeof value === 'string' && value ? value : null}
          clearable={!definition.required}
          onChange={(next) => onChange(next ?? '')}
        />
      );
    case 'text':
    case 'json':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          maxRows={8}
          placeholder={hints[definition.property_type]}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.currentTarget.value)}
          ff={definition.property_type === 'json' ? 'monospace' : undefined}
        />
      );
    case 'node_reference_list':
      return (
        <TagsInput {...common} placeholder="entity ids" value={Array.isArray(value) ? value : []} onChange={onChange} />
      );
    default:
      return (
        <TextInput
          {...common}
          placeholder={hints[definition.property_type]}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}
