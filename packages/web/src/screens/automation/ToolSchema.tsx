import { Code, Stack, Text } from '@mantine/core';
import { RawJson } from '../../components/JsonBlock.tsx';
import { schemaProperties, type ObjectSchema } from '../../components/JsonSchemaFields.tsx';
import { humanise } from '../../lib/format.ts';

const typeNames: Record<string, string> = {
  string: 'text',
  integer: 'whole number',
  number: 'number',
  boolean: 'yes or no',
  object: 'group of fields',
  array: 'list',
};

function typeName(type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).filter(
    (entry): entry is string => typeof entry === 'string' && entry !== 'null',
  );
  return types.length ? types.map((entry) => typeNames[entry] ?? entry).join(' or ') : 'any value';
}

/**
 * The fields a tool takes or gives, read from its JSON schema: each with its kind, whether it is required and what
 * it is for; the key to use in a step's configuration beside it, and the schema itself under "Raw".
 */
export function ToolSchema({ schema, label }: { schema: unknown; label: string }) {
  const fields = schemaProperties(schema);
  const required = new Set((schema as ObjectSchema | null)?.required ?? []);
  return (
    <div>
      <Stack gap={6} role="group" aria-label={label}>
        {fields.length === 0 && (
          <Text fz="sm" c="dimmed">
            No fields.
          </Text>
        )}
        {fields.map(([key, field]) => (
          <div key={key}>
            <Text fz="sm">
              <Text span fw={600} fz="sm">
                {field.title ?? humanise(key)}
              </Text>{' '}
              <Text span c="dimmed" fz="sm">
                · {typeName(field.type)}
                {required.has(key) ? ' · required' : ''}
              </Text>{' '}
              <Code fz="xs">{key}</Code>
            </Text>
            {field.description && (
              <Text fz="xs" c="dimmed">
                {field.description}
              </Text>
            )}
          </div>
        ))}
      </Stack>
      <RawJson value={schema} label={`${label} as JSON schema`} maxHeight={320} />
    </div>
  );
}
