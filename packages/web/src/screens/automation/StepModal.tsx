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
import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { isPlainObject, parseJsonField, type Step, type WorkflowDetail } from './automation-data.ts';
import type { ToolCatalog } from './tool-catalog.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

type ToolType = Step['tool_type'];

/** A step id from its name: "Look up node" → look_up_node (ids start with a letter). */
const idFrom = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);
const toolKey = (type: ToolType, id: string) => `${type}:${id}`;

/** The system tool whose input a step's configuration fills: the tool itself, or the one a user tool configures. */
function systemToolOf(type: ToolType, id: string, choices: ToolCatalog): string | null {
  if (type === 'system_tool') return id;
  if (type === 'user_tool') return choices.userTools.find((tool) => tool.id === id)?.system_tool_id ?? null;
  return null;
}

function conditionText(condition: unknown): string {
  if (condition === null || condition === undefined) return '';
  return typeof condition === 'string' ? condition : JSON.stringify(condition);
}

/** Adds a step to a workflow or edits one: its tool and the input it gets, the steps it waits for, and how it fails. */
export function StepModal({
  workflow,
  step,
  opened,
  choices,
  onClose,
  onSaved,
}: {
  workflow: WorkflowDetail;
  step: Step | null;
  opened: boolean;
  choices: ToolCatalog;
  onClose: () => void;
  onSaved: () => void;
}) {
  const updateStep = useAction(workflowEndpoints.updateStep);
  const addStep = useAction(workflowEndpoints.addStep);
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
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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
    setFailure(null);
  }, [opened, step]);

  const toolOptions = useMemo(
    () =>
      [
        {
          group: 'Built-in tools',
          items: choices.systemTools.map((entry) => ({
            value: toolKey('system_tool', entry.id),
            label: entry.name,
          })),
        },
        {
          group: 'Your tools',
          items: choices.userTools.map((entry) => ({
            value: toolKey('user_tool', entry.id),
            label: `${entry.name} (${entry.system_tool.name})`,
          })),
        },
        {
          group: 'Workflows (run as a step)',
          items: choices.workflows
            .filter((entry) => entry.id !== workflow.id)
            .map((entry) => ({ value: toolKey('workflow', entry.id), label: entry.name })),
        },
      ].filter((group) => group.items.length > 0),
    [choices, workflow.id],
  );
  const [toolType, toolId] = tool ? (tool.split(/:(.*)/s) as [ToolType, string]) : [null, null];
  const schemaToolId = toolType && toolId ? systemToolOf(toolType, toolId, choices) : null;
  const toolDetail = useEndpoint(toolEndpoints.systemGet, schemaToolId ? { params: { tool_id: schemaToolId } } : null);
  const inputSchema = toolDetail.data?.input_schema as
    { required?: string[]; properties?: Record<string, unknown> } | undefined;
  const otherSteps = workflow.steps
    .filter((entry) => entry.id !== step?.id)
    .map((entry) => ({ value: entry.id, label: `${entry.name} (${entry.id})` }));

  async function save(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Give the step a name';
    if (!toolType || !toolId) found.tool_id = 'Choose the tool the step runs';
    const parsed = parseJsonField(configuration, 'the configuration', {});
    if ('error' in parsed) found.configuration = parsed.error;
    else if (!isPlainObject(parsed.value))
      found.configuration = 'The configuration is a JSON object: { "field": value }';
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length || !toolType || !toolId || 'error' in parsed) return;
    let conditionValue: unknown = null;
    if (condition.trim()) {
      try {
        conditionValue = JSON.parse(condition) as unknown;
      } catch {
        conditionValue = condition.trim();
      }
    }
    const fields = {
      name: name.trim(),
      description: description.trim() || null,
      tool_type: toolType,
      tool_id: toolId,
      configuration: parsed.value as Record<string, unknown>,
      depends_on: dependsOn,
      condition: conditionValue,
      retry_on_failure: retry,
      continue_on_error: continueOnError,
      thinking_mode: thinking,
      timeout_seconds: typeof timeout === 'number' ? timeout : null,
    };
    setBusy(true);
    try {
      if (step)
        await updateStep.run({
          params: { workflow_id: workflow.id, step_id: step.id },
          body: fields,
        });
      else
        await addStep.run({
          params: { workflow_id: workflow.id },
          body: { ...fields, ...(id.trim() ? { id: id.trim() } : {}) },
        });
      onSaved();
    } catch (error) {
      if (error instanceof RequestError) {
        const placed: Record<string, string> = {};
        for (const issue of error.issues) {
          const field = issue.loc[0] === 'steps' ? issue.loc[2] : issue.loc[1];
          if (typeof field === 'string') placed[field] = issue.msg;
        }
        setErrors(placed);
        setFailure(error.message);
      } else setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={step ? `Edit the step “${step.name}”` : 'Add a step'} size="xl">
      <form onSubmit={(event) => void save(event)} noValidate>
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
            data={toolOptions}
            value={tool}
            onChange={setTool}
            searchable
            error={errors.tool_id}
            nothingFoundMessage="No tool matches"
          />
          {toolDetail.data && (
            <Text fz="xs" c="dimmed">
              {toolDetail.data.description} Input fields:{' '}
              {Object.keys(inputSchema?.properties ?? {})
                .map((field) => `${field}${inputSchema?.required?.includes(field) ? ' (required)' : ''}`)
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
          {failure && (
            <Alert color="red" title="The step was not saved" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {step ? 'Save the step' : 'Add the step'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
