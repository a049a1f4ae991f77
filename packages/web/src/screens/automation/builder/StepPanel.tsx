import { Alert, Badge, Button, Group, List, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAdjustments, IconTrash } from '@tabler/icons-react';
import { JsonSchemaFields, schemaProperties, type ObjectSchema } from '../../../components/JsonSchemaFields.tsx';
import { JsonBlock } from '../../../components/JsonBlock.tsx';
import { humanise } from '../../../lib/format.ts';
import { executionStatusColors } from '../automation-data.ts';
import type { Problem } from './draft-problems.ts';
import { ReferenceField } from './ReferenceField.tsx';
import type { TestRunStep } from './test-run.ts';
import type { ToolInfo } from './tool-info.ts';
import { conditionFrom, conditionText, type Draft, type DraftStep } from './workflow-draft.ts';

type Property = ReturnType<typeof schemaProperties>[number][1];

const typeOf = (property: Property) =>
  Array.isArray(property.type) ? property.type.find((type) => type !== 'null') : property.type;

/** Text and untyped inputs take references; the others keep the field their type calls for. */
const takesReferences = (property: Property) =>
  !property.enum && (typeOf(property) === undefined || typeOf(property) === 'string');

/** An untyped input as typed: JSON when it parses (a number, a list), otherwise the text itself. */
function untypedFrom(text: string): unknown {
  if (!text.trim() || text.trim().startsWith('{{')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const textOf = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** The selected step's settings beside the canvas: its name, its inputs from the tool's schema, when it runs. */
export function StepPanel({
  step,
  draft,
  tool,
  references,
  problems,
  run,
  revision,
  onChange,
  onEditAll,
  onDelete,
}: {
  step: DraftStep;
  draft: Draft;
  tool: ToolInfo | undefined;
  references: string[];
  problems: Problem[];
  run: TestRunStep | undefined;
  revision: number;
  onChange: (changes: Partial<DraftStep>, kind: string) => void;
  onEditAll: () => void;
  onDelete: () => void;
}) {
  const properties = schemaProperties(tool?.inputSchema).filter(([name]) => !(name in (tool?.preset ?? {})));
  const required = new Set(tool?.inputSchema.required ?? []);
  const plain = properties.filter(([, property]) => !takesReferences(property));
  const plainSchema: ObjectSchema = {
    properties: Object.fromEntries(plain),
    required: plain.map(([name]) => name).filter((name) => required.has(name)),
  };
  const errorsByInput = Object.fromEntries(
    problems.filter((problem) => problem.input).map((problem) => [problem.input, problem.message]),
  );
  const setInput = (name: string, value: unknown) => {
    const configuration = { ...step.configuration };
    if (value === undefined || value === '') delete configuration[name];
    else configuration[name] = value;
    onChange({ configuration }, `input:${step.id}:${name}`);
  };
  const others = draft.filter((entry) => entry.id !== step.id).map((entry) => ({ value: entry.id, label: entry.name }));

  return (
    <Stack gap="sm" aria-label={`Settings of ${step.name}`} role="region">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Title order={3} fz="md">
          {step.name}
        </Title>
        <Text fz="xs" c="dimmed" ff="monospace">
          {step.id}
        </Text>
      </Group>
      <Text fz="xs" c="dimmed">
        {tool ? `${tool.name}: ${tool.description}` : step.tool_id}
      </Text>
      <TextInput
        label="Name"
        value={step.name}
        onChange={(event) => onChange({ name: event.currentTarget.value }, `name:${step.id}`)}
        error={step.name.trim() ? undefined : 'Give the step a name'}
      />
      {properties
        .filter(([, property]) => takesReferences(property))
        .map(([name, property]) => (
          <ReferenceField
            key={name}
            label={property.title ?? name}
            description={property.description}
            required={required.has(name)}
            error={errorsByInput[name]}
            value={textOf(step.configuration[name])}
            references={references}
            onChange={(text) => setInput(name, typeOf(property) === 'string' ? text : untypedFrom(text))}
          />
        ))}
      {plain.length > 0 && (
        <JsonSchemaFields
          key={`${step.id}:${revision}`}
          schema={plainSchema}
          value={Object.fromEntries(plain.map(([name]) => [name, step.configuration[name]]))}
          errors={errorsByInput}
          onChange={(values) => {
            const configuration = { ...step.configuration };
            for (const [name] of plain) delete configuration[name];
            onChange({ configuration: { ...configuration, ...values } }, `inputs:${step.id}`);
          }}
        />
      )}
      <MultiSelect
        label="Runs after"
        description="Or connect the steps on the canvas"
        data={others}
        value={step.depends_on}
        onChange={(depends_on) => onChange({ depends_on }, `after:${step.id}`)}
        searchable
        clearable
        nothingFoundMessage="No other steps"
      />
      <ReferenceField
        label="Run only when"
        description="Empty: always. A value judged true or false, e.g. a step's output"
        value={conditionText(step.condition)}
        references={references}
        onChange={(text) => onChange({ condition: conditionFrom(text) }, `condition:${step.id}`)}
      />
      {problems.length > 0 && (
        <Alert color={problems.some((problem) => problem.blocking) ? 'red' : 'yellow'} title="To fix" p="xs">
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem.message}>{problem.message}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {run && (
        <Stack gap={4}>
          <Group gap="xs">
            <Text fz="sm" fw={600}>
              Test run
            </Text>
            <Badge variant="light" color={executionStatusColors[run.status] ?? 'gray'}>
              {humanise(run.status)}
            </Badge>
          </Group>
          {run.error && (
            <Text fz="sm" c="red">
              {run.error}
            </Text>
          )}
          <JsonBlock value={run.output} label={`Test output of ${step.name}`} empty="No output" />
        </Stack>
      )}
      <Group gap="xs">
        <Button variant="default" size="xs" leftSection={<IconAdjustments size={14} />} onClick={onEditAll}>
          All settings…
        </Button>
        <Button variant="default" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={onDelete}>
          Delete the step
        </Button>
      </Group>
    </Stack>
  );
}
