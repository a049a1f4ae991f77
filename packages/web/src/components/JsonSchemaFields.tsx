import { JsonInput, NumberInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  title?: string;
  default?: unknown;
}
export interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** The declared properties of an object schema, each with the input its type calls for. */
export function schemaProperties(schema: unknown): [string, PropertySchema][] {
  const properties = (schema as ObjectSchema | null)?.properties;
  return properties && typeof properties === 'object' ? Object.entries(properties) : [];
}

/** A starting value: each property's default, when the schema gives one. */
export function schemaDefaults(schema: unknown): Record<string, unknown> {
  return Object.fromEntries(
    schemaProperties(schema)
      .filter(([, property]) => property.default !== undefined)
      .map(([name, property]) => [name, property.default]),
  );
}

const typeOf = (property: PropertySchema) =>
  Array.isArray(property.type) ? property.type.find((type) => type !== 'null') : property.type;

/**
 * A form generated from a JSON schema's top-level properties: text, numbers, yes/no, choices, and JSON for
 * everything structured. `errors` holds a message per property name.
 */
export function JsonSchemaFields({
  schema,
  value,
  onChange,
  errors = {},
}: {
  schema: unknown;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  errors?: Record<string, string | undefined>;
}) {
  const properties = schemaProperties(schema);
  const required = new Set((schema as ObjectSchema | null)?.required ?? []);
  const set = (name: string, next: unknown) => {
    const copy = { ...value };
    if (next === undefined || next === '') delete copy[name];
    else copy[name] = next;
    onChange(copy);
  };
  if (properties.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        This workflow declares no inputs.
      </Text>
    );
  return (
    <Stack gap="xs">
      {properties.map(([name, property]) => {
        const common = {
          label: property.title ?? name,
          description: property.description,
          required: required.has(name),
          error: errors[name],
        };
        const current = value[name];
        const type = typeOf(property);
        if (property.enum) {
          return (
            <Select
              key={name}
              {...common}
              data={property.enum.map(String)}
              value={current === undefined ? null : String(current)}
              clearable
              onChange={(next) => set(name, next ?? undefined)}
            />
          );
        }
        if (type === 'boolean')
          return (
            <Switch
              key={name}
              label={common.label}
              description={common.description}
              error={common.error}
              checked={current === true}
              onChange={(event) => set(name, event.currentTarget.checked)}
            />
          );
        if (type === 'integer' || type === 'number') {
          return (
            <NumberInput
              key={name}
              {...common}
              allowDecimal={type === 'number'}
              value={typeof current === 'number' ? current : ''}
              onChange={(next) => set(name, typeof next === 'number' ? next : undefined)}
            />
          );
        }
        if (type === 'string')
          return (
            <TextInput
              key={name}
              {...common}
              value={typeof current === 'string' ? current : ''}
              onChange={(event) => set(name, event.currentTarget.value)}
            />
          );
        return <StructuredField key={name} {...common} value={current} onChange={(next) => set(name, next)} />;
      })}
    </Stack>
  );
}

/** An object, array or untyped value entered as JSON; kept as text until it parses. */
function StructuredField({
  value,
  onChange,
  ...common
}: {
  label: string;
  description?: string;
  required: boolean;
  error?: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  return (
    <JsonInput
      {...common}
      autosize
      minRows={2}
      maxRows={10}
      validationError="Not valid JSON"
      defaultValue={value === undefined ? '' : JSON.stringify(value, null, 2)}
      onChange={(text) => {
        if (!text.trim()) return onChange(undefined);
        try {
          onChange(JSON.parse(text) as unknown);
        } catch {
          // kept as typed until it is valid JSON
        }
      }}
    />
  );
}
