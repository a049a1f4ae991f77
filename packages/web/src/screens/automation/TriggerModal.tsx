import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Group,
  JsonInput,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { triggerEndpoints } from '@rhizome/contracts/api/triggers';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { builtInEvents, isPlainObject, parseJsonField, type Trigger, type Workflow } from './automation-data.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** Creates a trigger or edits one: the event it listens to, the filters the event must match, the workflow it starts. */
export function TriggerModal({
  opened,
  trigger,
  workflows,
  defaultWorkflowId,
  onClose,
  onSaved,
}: {
  opened: boolean;
  trigger: Trigger | null;
  workflows: Workflow[];
  defaultWorkflowId: string | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const update = useAction(triggerEndpoints.update);
  const create = useAction(triggerEndpoints.create);
  const [name, setName] = useState('');
  const [eventSource, setEventSource] = useState('node.create');
  const [filters, setFilters] = useState('{}');
  const [workflowId, setWorkflowId] = useState<string | null>(null);
  const [inputs, setInputs] = useState('');
  const [priority, setPriority] = useState<number | string>(0);
  const [enabled, setEnabled] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setName(trigger?.name ?? '');
    setEventSource(trigger?.event_source ?? 'node.create');
    setFilters(JSON.stringify(trigger?.filters ?? {}, null, 2));
    setWorkflowId(trigger?.workflow_id ?? defaultWorkflowId);
    setInputs(trigger?.workflow_inputs ? JSON.stringify(trigger.workflow_inputs, null, 2) : '');
    setPriority(trigger?.priority ?? 0);
    setEnabled(trigger?.enabled ?? true);
    setErrors({});
    setFailure(null);
  }, [opened, trigger, defaultWorkflowId]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const parsedFilters = parseJsonField(filters, 'the filters', {});
    const parsedInputs = parseJsonField(inputs, 'the inputs', null);
    if ('error' in parsedFilters) found.filters = parsedFilters.error;
    else if (!isPlainObject(parsedFilters.value))
      found.filters = 'Filters are a JSON object, e.g. {"entity_type": "node"}';
    if ('error' in parsedInputs) found.workflow_inputs = parsedInputs.error;
    else if (parsedInputs.value !== null && !isPlainObject(parsedInputs.value))
      found.workflow_inputs = 'Inputs are a JSON object';
    if (!name.trim()) found.name = 'Give the trigger a name';
    if (!eventSource.trim()) found.event_source = 'Name the event, e.g. node.create';
    if (!workflowId) found.workflow_id = 'Choose the workflow it starts';
    if (typeof priority !== 'number') found.priority = 'Enter a whole number';
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length || !workflowId || 'error' in parsedFilters || 'error' in parsedInputs) return;
    const body = {
      name: name.trim(),
      event_source: eventSource.trim(),
      filters: parsedFilters.value as Record<string, unknown>,
      workflow_id: workflowId,
      workflow_inputs: parsedInputs.value as Record<string, unknown> | null,
      priority: Number(priority),
      enabled,
    };
    setBusy(true);
    try {
      if (trigger) await update.run({ params: { trigger_id: trigger.id }, body });
      else await create.run({ body });
      onSaved();
    } catch (error) {
      if (error instanceof RequestError) {
        const placed: Record<string, string> = {};
        for (const issue of error.issues) if (typeof issue.loc[1] === 'string') placed[issue.loc[1]] = issue.msg;
        setErrors(placed);
        setFailure(error.message);
      } else setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={trigger ? `Edit the trigger “${trigger.name}”` : 'New trigger'}
      size="lg"
    >
      <form onSubmit={(event) => void save(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
            <Autocomplete
              label="Event"
              required
              description="node.create and edge.create happen in the graph; any other name waits for “Fire now” or a webhook"
              data={builtInEvents}
              value={eventSource}
              onChange={setEventSource}
              error={errors.event_source}
            />
            <Select
              label="Workflow it starts"
              required
              searchable
              data={workflows.map((workflow) => ({ value: workflow.id, label: workflow.name }))}
              value={workflowId}
              onChange={setWorkflowId}
              error={errors.workflow_id}
            />
          </SimpleGrid>
          <JsonInput
            label="Filters"
            description='Every key must be in the event and equal, e.g. {"entity_type": "node"}. {} matches every event.'
            value={filters}
            onChange={setFilters}
            autosize
            minRows={2}
            maxRows={8}
            validationError="Not valid JSON"
            error={errors.filters}
          />
          <JsonInput
            label="Extra inputs for the workflow (optional)"
            description="Added to the event's own fields when the workflow starts"
            value={inputs}
            onChange={setInputs}
            autosize
            minRows={2}
            maxRows={8}
            validationError="Not valid JSON"
            error={errors.workflow_inputs}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
            <NumberInput
              label="Priority"
              description="Lower runs first when several triggers match"
              allowDecimal={false}
              value={priority}
              onChange={setPriority}
              error={errors.priority}
            />
            <Switch
              label="Enabled"
              checked={enabled}
              onChange={(event) => setEnabled(event.currentTarget.checked)}
              mt={{ base: 0, sm: 30 }}
            />
          </SimpleGrid>
          {failure && (
            <Alert color="red" title="The trigger was not saved" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {trigger ? 'Save the trigger' : 'Create the trigger'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
