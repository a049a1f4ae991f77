import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Code,
  Group,
  JsonInput,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { isPlainObject, parseJsonField } from './automation-data.ts';
import { schemaProperties } from '../../components/JsonSchemaFields.tsx';
import { draftProblems } from './builder/draft-problems.ts';
import { defaultInput, toolKey, type ToolInfo } from './builder/tool-info.ts';
import {
  addStep,
  conditionFrom,
  conditionText,
  freeId,
  idFrom,
  replaceStep,
  type Draft,
  type DraftStep,
  type ToolType,
} from './builder/workflow-draft.ts';

/** The tools a step may run, grouped as the palette groups them. */
export function toolOptions(tools: Map<string, ToolInfo>) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const tool of tools.values())
    groups.set(tool.group, [...(groups.get(tool.group) ?? []), { value: tool.key, label: tool.name }]);
  return [...groups].map(([group, items]) => ({ group, items }));
}

/**
 * Adds a step to the draft or edits one, every field at once: its tool and the input it gets (as JSON),
 * the steps it waits for, and how it fails. What the server would refuse is said here, before saving.
 */
export function StepModal({
  draft,
  step,
  opened,
  tools,
  inputSchema,
  onClose,
  onDone,
}: {
  draft: Draft;
  step: DraftStep | null;
  opened: boolean;
  tools: Map<string, ToolInfo>;
  inputSchema: unknown;
  onClose: () => void;
  /** The next draft, with the step added or changed. */
  onDone: (next: Draft) => void;
}) {
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [idEdited, setIdEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [tool, setTool] = useState<string | null>(null);
  const [configuration, setConfiguration] = useState('{}');
  const [dependsOn, setDependsOn] = useState<string[]>([]);
  const [condition, setCondition] = useState('');
  const [retry, setRetry] = useState(false);
  const [continueOnError, setContinueOnError] = useState(false);
  const [thinking, setThinking] = useState(false);
  const [timeout, setTimeoutSeconds] = useState<number | string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string[]>([]);

  useEffect(() => {
    if (!opened) return;
    setName(step?.name ?? '');
    setId(step?.id ?? '');
    setIdEdited(Boolean(step));
    setDescription(step?.description ?? '');
    setTool(step ? toolKey(step.tool_type, step.tool_id) : null);
    setConfiguration(JSON.stringify(step?.configuration ?? {}, null, 2));
    setDependsOn(step?.depends_on ?? []);
    setCondition(conditionText(step?.condition));
    setRetry(step?.retry_on_failure ?? false);
    setContinueOnError(step?.continue_on_error ?? false);
    setThinking(step?.thinking_mode ?? false);
    setTimeoutSeconds(step?.timeout_seconds ?? '');
    setErrors({});
    setFailure([]);
  }, [opened, step]);

  const options = useMemo(() => toolOptions(tools), [tools]);
  const chosen = tool ? tools.get(tool) : undefined;
  const inputFields = schemaProperties(chosen?.inputSchema);
  const otherSteps = draft
    .filter((entry) => entry.id !== step?.id)
    .map((entry) => ({ value: entry.id, label: `${entry.name} (${entry.id})` }));

  function chooseTool(key: string | null) {
    setTool(key);
    const next = key ? tools.get(key) : undefined;
    // A new step starts with the chosen tool's defaults while nothing was typed yet.
    if (!step && next && configuration.trim() === '{}') setConfiguration(JSON.stringify(defaultInput(next), null, 2));
  }

  function save(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Give the step a name';
    if (!chosen) found.tool_id = 'Choose the tool the step runs';
    const chosenId = id.trim() || freeId(draft, idFrom(name));
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(chosenId))
      found.id = 'A step id starts with a letter and holds letters, digits, _ and -';
    else if (chosenId !== step?.id && draft.some((entry) => entry.id === chosenId))
      found.id = 'Another step has this id';
    const parsed = parseJsonField(configuration, 'the configuration', {});
    if ('error' in parsed) found.configuration = parsed.error;
    else if (!isPlainObject(parsed.value))
      found.configuration = 'The configuration is a JSON object: { "field": value }';
    setErrors(found);
    setFailure([]);
    if (Object.keys(found).length || !chosen || 'error' in parsed) return;
    const next: DraftStep = {
      id: chosenId,
      name: name.trim(),
      description: description.trim() || null,
      tool_type: chosen.tool_type as ToolType,
      tool_id: chosen.tool_id,
      configuration: parsed.value as Record<string, unknown>,
      depends_on: dependsOn,
      condition: conditionFrom(condition),
      retry_on_failure: retry,
      continue_on_error: continueOnError,
      thinking_mode: thinking,
      timeout_seconds: typeof timeout === 'number' ? timeout : null,
    };
    const result = step ? replaceStep(draft, step.id, next) : addStep(draft, next);
    const refused = (draftProblems(result, tools, inputSchema).get(next.id) ?? []).filter(
      (problem) => problem.blocking,
    );
    if (refused.length) {
      setErrors(Object.fromEntries(refused.map((problem) => [problem.field, problem.message])));
      setFailure(refused.map((problem) => `${next.name}: ${problem.message}`));
      return;
    }
    onDone(result);
  }

  return (
    <Modal opened={opened} onClose={onClose} title={step ? `Edit the step “${step.name}”` : 'Add a step'} size="xl">
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
            <TextInput
              label="Name"
              required
              data-autofocus
              value={name}
              error={errors.name}
              onChange={(event) => {
                setName(event.currentTarget.value);
                if (!idEdited) setId(idFrom(event.currentTarget.value));
              }}
            />
            <TextInput
              label="Step id"
              description={
                <>
                  Later steps read its result as <Code>{`{{steps.${id || 'id'}.output}}`}</Code>
                </>
              }
              value={id}
              disabled={Boolean(step)}
              error={errors.id}
              onChange={(event) => {
                setId(event.currentTarget.value);
                setIdEdited(true);
              }}
            />
          </SimpleGrid>
          <Select
            label="Tool"
            required
            data={options}
            value={tool}
            onChange={chooseTool}
            searchable
            error={errors.tool_id}
            nothingFoundMessage="No tool matches"
          />
          {chosen && (
            <Text fz="xs" c="dimmed">
              {chosen.description} Input fields:{' '}
              {inputFields
                .map(([field]) => `${field}${chosen.inputSchema.required?.includes(field) ? ' (required)' : ''}`)
                .join(', ') || 'none'}
              .
            </Text>
          )}
          <JsonInput
            label="Configuration"
            description="The tool's input. Text may use {{inputs.name}} and {{steps.<id>.output.field}}."
            value={configuration}
            onChange={setConfiguration}
            autosize
            minRows={4}
            maxRows={14}
            validationError="Not valid JSON"
            error={errors.configuration}
          />
          <MultiSelect
            label="Runs after"
            description="The steps that must finish first"
            data={otherSteps}
            value={dependsOn}
            onChange={setDependsOn}
            error={errors.depends_on}
            clearable
            searchable
            nothingFoundMessage="No other steps"
          />
          <TextInput
            label="Run only when"
            description='Empty: always. A value judged true or false, e.g. {{steps.check.output.result}}, or JSON {"value": …, "operator": "equals", "compare_to": …}'
            value={condition}
            onChange={(event) => setCondition(event.currentTarget.value)}
            error={errors.condition}
          />
          <Textarea
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            autosize
            minRows={1}
            maxRows={4}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
            <NumberInput
              label="Time limit (seconds)"
              description="Empty: the workflow's limit"
              min={1}
              max={86_400}
              allowDecimal={false}
              value={timeout}
              onChange={setTimeoutSeconds}
              error={errors.timeout_seconds}
            />
            <Stack gap={8} justify="flex-end">
              <Switch
                label="Retry when it fails"
                checked={retry}
                onChange={(event) => setRetry(event.currentTarget.checked)}
              />
              <Switch
                label="Continue the workflow when it fails"
                checked={continueOnError}
                onChange={(event) => setContinueOnError(event.currentTarget.checked)}
              />
              <Switch
                label="Let the model think first (AI tools)"
                checked={thinking}
                onChange={(event) => setThinking(event.currentTarget.checked)}
              />
            </Stack>
          </SimpleGrid>
          {failure.length > 0 && (
            <Alert color="red" title="The step cannot be kept like this" role="alert">
              {failure.map((line) => (
                <div key={line}>{line}</div>
              ))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">{step ? 'Keep the changes' : 'Add the step'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
