import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  JsonInput,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { isPlainObject, parseJsonField, type WorkflowDetail } from './automation-data.ts';
import { useAction } from '../../lib/data/use-action.ts';

const pretty = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2));

/** A workflow's own fields: names, limits, and the JSON schema of its inputs. Built-in workflows can only be switched on or off. */
export function WorkflowSettings({ workflow }: { workflow: WorkflowDetail }) {
  const update = useAction(workflowEndpoints.update);
  const [name, setName] = useState(workflow.name);
  const [description, setDescription] = useState(workflow.description ?? '');
  const [category, setCategory] = useState(workflow.category);
  const [tags, setTags] = useState<string[]>(workflow.tags ?? []);
  const [exposed, setExposed] = useState(workflow.expose_as_ai_tool);
  const [parallel, setParallel] = useState(workflow.allow_parallel_execution);
  const [timeout, setTimeoutSeconds] = useState<number | string>(workflow.timeout_seconds);
  const [retries, setRetries] = useState<number | string>(workflow.max_retries);
  const [inputSchema, setInputSchema] = useState(pretty(workflow.input_schema));
  const [outputSchema, setOutputSchema] = useState(pretty(workflow.output_schema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setInputSchema(pretty(workflow.input_schema));
    setOutputSchema(pretty(workflow.output_schema));
  }, [workflow.input_schema, workflow.output_schema]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const input = parseJsonField(inputSchema, 'the input schema', {});
    const output = parseJsonField(outputSchema, 'the output schema', null);
    if ('error' in input) found.input_schema = input.error;
    else if (!isPlainObject(input.value)) found.input_schema = 'The input schema is a JSON object';
    if ('error' in output) found.output_schema = output.error;
    if (!name.trim()) found.name = 'Give the workflow a name';
    if (typeof timeout !== 'number') found.timeout_seconds = 'Enter a number of seconds';
    if (typeof retries !== 'number') found.max_retries = 'Enter a number of retries';
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length || 'error' in input || 'error' in output) return;
    setBusy(true);
    try {
      const saved = await update.run({
        params: { workflow_id: workflow.id },
        body: {
          name: name.trim(),
          description: description.trim() || null,
          category: category.trim() || 'custom',
          tags: tags.length ? tags : null,
          expose_as_ai_tool: exposed,
          allow_parallel_execution: parallel,
          timeout_seconds: Number(timeout),
          max_retries: Number(retries),
          input_schema: input.value as Record<string, unknown>,
          output_schema: (output.value as Record<string, unknown> | null) ?? null,
        },
      });
      notifications.show({ color: 'teal', message: `The workflow “${saved.name}” is saved.` });
    } catch (error) {
      if (error instanceof RequestError) {
        const placed: Record<string, string> = {};
        for (const issue of error.issues) {
          const field = issue.loc[0] === 'body' ? issue.loc[1] : issue.loc[0];
          if (typeof field === 'string') placed[field] = issue.msg;
        }
        setErrors(placed);
        setFailure(error.message);
      } else setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const locked = workflow.is_system;
  return (
    <Card withBorder radius="md">
      <form onSubmit={(event) => void save(event)} noValidate>
        <Stack gap="sm">
          <div>
            <Title order={2} fz="lg">
              Settings
            </Title>
            {locked && (
              <Text fz="sm" c="dimmed">
                A built-in workflow: it can be switched on or off, not changed.
              </Text>
            )}
          </div>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
            <TextInput
              label="Name"
              required
              disabled={locked}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name}
            />
            <TextInput
              label="Category"
              disabled={locked}
              value={category}
              onChange={(event) => setCategory(event.currentTarget.value)}
              error={errors.category}
            />
            <Textarea
              label="Description"
              disabled={locked}
              value={description}
              onChange={(event) => setDescription(event.currentTarget.value)}
              autosize
              minRows={1}
              maxRows={4}
              error={errors.description}
            />
            <TagsInput label="Tags" disabled={locked} value={tags} onChange={setTags} clearable />
            <NumberInput
              label="Time limit (seconds)"
              disabled={locked}
              min={1}
              max={86_400}
              allowDecimal={false}
              value={timeout}
              onChange={setTimeoutSeconds}
              error={errors.timeout_seconds}
            />
            <NumberInput
              label="Retries of a failing step"
              description="For steps set to retry"
              disabled={locked}
              min={0}
              max={10}
              allowDecimal={false}
              value={retries}
              onChange={setRetries}
              error={errors.max_retries}
            />
            <Switch
              label="Offer it to the chat assistant as a tool"
              disabled={locked}
              checked={exposed}
              onChange={(event) => setExposed(event.currentTarget.checked)}
            />
            <Switch
              label="Allow several runs at the same time"
              disabled={locked}
              checked={parallel}
              onChange={(event) => setParallel(event.currentTarget.checked)}
            />
          </SimpleGrid>
          <JsonInput
            label="Inputs (JSON schema)"
            description='The inputs a run takes; steps read them as {{inputs.name}}. E.g. {"type": "object", "properties": {"entity_id": {"type": "string"}}}'
            disabled={locked}
            value={inputSchema}
            onChange={setInputSchema}
            autosize
            minRows={3}
            maxRows={14}
            validationError="Not valid JSON"
            error={errors.input_schema}
          />
          <JsonInput
            label="Outputs (JSON schema, optional)"
            disabled={locked}
            value={outputSchema}
            onChange={setOutputSchema}
            autosize
            minRows={2}
            maxRows={10}
            validationError="Not valid JSON"
            error={errors.output_schema}
          />
          {failure && (
            <Alert color="red" title="The settings were not saved" role="alert">
              {failure}
            </Alert>
          )}
          {!locked && (
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                Save the settings
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
