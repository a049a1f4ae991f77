import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  JsonInput,
  Modal,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { isPlainObject, parseJsonField, type SystemTool, type UserTool } from './automation-data.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** Creates or edits a user tool: a system tool with part of its input filled in, reusable by steps. */
export function UserToolModal({
  opened,
  tool,
  systemTools,
  onClose,
  onSaved,
}: {
  opened: boolean;
  tool: UserTool | null;
  systemTools: SystemTool[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const update = useAction(toolEndpoints.update);
  const create = useAction(toolEndpoints.create);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [systemToolId, setSystemToolId] = useState<string | null>(null);
  const [configuration, setConfiguration] = useState('{}');
  const [tags, setTags] = useState<string[]>([]);
  const [active, setActive] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setName(tool?.name ?? '');
    setDescription(tool?.description ?? '');
    setSystemToolId(tool?.system_tool_id ?? null);
    setConfiguration(JSON.stringify(tool?.configuration ?? {}, null, 2));
    setTags(tool?.tags ?? []);
    setActive(tool?.is_active ?? true);
    setErrors({});
    setFailure(null);
  }, [opened, tool]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const parsed = parseJsonField(configuration, 'the configuration', {});
    if ('error' in parsed) found.configuration = parsed.error;
    else if (!isPlainObject(parsed.value)) found.configuration = 'The configuration is a JSON object';
    if (!name.trim()) found.name = 'Give the tool a name';
    if (!systemToolId) found.system_tool_id = 'Choose the system tool it configures';
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length || !systemToolId || 'error' in parsed) return;
    const fields = {
      name: name.trim(),
      description: description.trim() || null,
      configuration: parsed.value as Record<string, unknown>,
      tags: tags.length ? tags : null,
      is_active: active,
    };
    setBusy(true);
    try {
      if (tool) await update.run({ params: { tool_id: tool.id }, body: fields });
      else await create.run({ body: { ...fields, system_tool_id: systemToolId } });
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
    <Modal opened={opened} onClose={onClose} title={tool ? `Edit “${tool.name}”` : 'New tool'} size="lg">
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
          <Select
            label="Built on"
            required
            disabled={Boolean(tool)}
            searchable
            value={systemToolId}
            onChange={setSystemToolId}
            error={errors.system_tool_id}
            data={systemTools.map((entry) => ({ value: entry.id, label: entry.name }))}
          />
          <JsonInput
            label="Configuration"
            description="Part of the tool's input, fixed for every step that uses this tool; steps fill in the rest."
            value={configuration}
            onChange={setConfiguration}
            autosize
            minRows={4}
            maxRows={14}
            validationError="Not valid JSON"
            error={errors.configuration}
          />
          <Textarea
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            autosize
            minRows={1}
            maxRows={4}
          />
          <TagsInput label="Tags" value={tags} onChange={setTags} clearable />
          <Switch label="Active" checked={active} onChange={(event) => setActive(event.currentTarget.checked)} />
          {failure && (
            <Alert color="red" title="The tool was not saved" role="alert">
              <Text fz="sm">{failure}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {tool ? 'Save the tool' : 'Create the tool'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
