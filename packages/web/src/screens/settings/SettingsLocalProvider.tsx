import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { presetEndpoints, type Preset } from '@rhizome/contracts/api/presets';
import type { LocalLlmInstance } from '@rhizome/contracts/settings';
import { messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useLocalServerCheck } from '../../lib/use-local-server-check.ts';

export interface LocalDraft {
  instances: LocalLlmInstance[];
  chatModel: string;
  extractionModel: string;
  visionModel: string | null;
}

interface Props {
  draft: LocalDraft;
  onChange: (draft: LocalDraft) => void;
  /** Models the saved servers report (GET /settings/localllm/models). */
  installed: string[];
  presets: Preset[];
  /** After a preset is applied: the settings changed on the server. */
  onPresetApplied: () => void;
}

/** Local model servers (Ollama-compatible): their addresses with a connection test, the models to use, and the VRAM presets. */
export function SettingsLocalProvider({ draft, onChange, installed, presets, onPresetApplied }: Props) {
  const applyChosen = useAction(presetEndpoints.apply);
  const { checks: verifications, verify } = useLocalServerCheck();
  const [preset, setPreset] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const [presetOutcome, setPresetOutcome] = useState<{ message: string; missing: string[] } | null>(null);

  const setInstance = (index: number, change: Partial<LocalLlmInstance>) =>
    onChange({
      ...draft,
      instances: draft.instances.map((instance, at) => (at === index ? { ...instance, ...change } : instance)),
    });
  const addInstance = () => {
    const taken = new Set(draft.instances.map((instance) => instance.id));
    let number = draft.instances.length + 1;
    while (taken.has(`server${number}`)) number += 1;
    onChange({
      ...draft,
      instances: [
        ...draft.instances,
        {
          id: `server${number}`,
          name: `Server ${number}`,
          base_url: 'http://127.0.0.1:11434',
          enabled: true,
          healthy: false,
        },
      ],
    });
  };

  async function applyPreset() {
    if (!preset) return;
    setApplying(true);
    try {
      const result = await applyChosen.run({ body: { preset_id: preset } });
      setPresetOutcome({ message: result.message, missing: result.missing_models });
      onPresetApplied();
      notifications.show({ color: 'teal', message: `Preset “${result.preset_name}” applied.` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not apply the preset', message: messageOf(error) });
    } finally {
      setApplying(false);
    }
  }

  const verified = Object.values(verifications).flatMap((result) =>
    result !== 'checking' && result.success ? (result.models ?? []) : [],
  );
  const models = [...new Set([...verified, ...installed])].sort();
  const options = (current: string | null) => [...new Set([...(current ? [current] : []), ...models])];

  return (
    <Stack gap="md">
      <div>
        <Title order={3} fz="sm" mb={4}>
          Model servers
        </Title>
        <Text fz="sm" c="dimmed" mb="xs">
          Ollama or any server speaking its API. Test the connection to see the models it has.
        </Text>
        <Stack gap="xs">
          {draft.instances.map((instance, index) => {
            const result = verifications[instance.base_url];
            return (
              <Paper key={instance.id} withBorder p="sm" radius="md">
                <Group align="flex-end" gap="xs" wrap="wrap">
                  <TextInput
                    label="Name"
                    value={instance.name}
                    onChange={(event) => setInstance(index, { name: event.currentTarget.value })}
                    w={{ base: '100%', sm: 150 }}
                  />
                  <TextInput
                    label="Server address"
                    placeholder="http://127.0.0.1:11434"
                    value={instance.base_url}
                    onChange={(event) => setInstance(index, { base_url: event.currentTarget.value })}
                    flex={1}
                    miw={220}
                  />
                  <Button
                    variant="light"
                    leftSection={<IconPlugConnected size={16} />}
                    loading={result === 'checking'}
                    onClick={() => void verify(instance.base_url)}
                    disabled={!instance.base_url.trim()}
                  >
                    Test connection
                  </Button>
                  <Switch
                    label="Enabled"
                    checked={instance.enabled}
                    onChange={(event) => setInstance(index, { enabled: event.currentTarget.checked })}
                    mb={8}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    mb={2}
                    aria-label={`Remove ${instance.name || instance.base_url}`}
                    disabled={draft.instances.length === 1}
                    onClick={() => onChange({ ...draft, instances: draft.instances.filter((_, at) => at !== index) })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
                {result && result !== 'checking' && (
                  <Alert
                    mt="xs"
                    color={result.success ? 'teal' : 'red'}
                    role="status"
                    title={result.success ? 'Connected' : 'Not reachable'}
                  >
                    {result.success
                      ? `Version ${result.version ?? 'unknown'} · ${countOf(result.model_count ?? 0, 'model')} · answered in ${Math.round(result.response_time_ms ?? 0)} ms`
                      : result.message}
                  </Alert>
                )}
              </Paper>
            );
          })}
        </Stack>
        <Button variant="subtle" leftSection={<IconPlus size={16} />} mt="xs" onClick={addInstance}>
          Add a server
        </Button>
      </div>
      <div>
        <Title order={3} fz="sm" mb={4}>
          Models
        </Title>
        <Text fz="sm" c="dimmed" mb="xs">
          {models.length
            ? `${countOf(models.length, 'model')} found on your servers.`
            : 'Test a connection to list the installed models.'}
        </Text>
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <Select
            label="Chat model"
            data={options(draft.chatModel)}
            value={draft.chatModel}
            onChange={(value) => value && onChange({ ...draft, chatModel: value })}
            searchable
            allowDeselect={false}
            miw={200}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Extraction model"
            data={options(draft.extractionModel)}
            value={draft.extractionModel}
            onChange={(value) => value && onChange({ ...draft, extractionModel: value })}
            searchable
            allowDeselect={false}
            miw={200}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Vision model"
            description="Optional: reads images and scanned pages"
            placeholder="None (vision off)"
            data={options(draft.visionModel)}
            value={draft.visionModel}
            onChange={(value) => onChange({ ...draft, visionModel: value })}
            searchable
            clearable
            miw={200}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
      </div>
      <div>
        <Title order={3} fz="sm" mb={4}>
          Presets
        </Title>
        <Text fz="sm" c="dimmed" mb="xs">
          Model choices and context sizes sized to your graphics memory. Applying one saves it right away; server
          addresses and keys are kept.
        </Text>
        <Group align="flex-end" gap="xs">
          <Select
            label="Preset"
            placeholder="Choose by graphics memory"
            data={presets.map((item) => ({ value: item.name, label: `${item.display_name} (${item.vram_gb} GB)` }))}
            value={preset}
            onChange={setPreset}
            flex={1}
            miw={220}
            comboboxProps={{ withinPortal: true }}
          />
          <Button variant="light" onClick={() => void applyPreset()} loading={applying} disabled={!preset}>
            Apply preset
          </Button>
        </Group>
        {preset && (
          <Text fz="xs" c="dimmed" mt={4}>
            {presets.find((item) => item.name === preset)?.description}
          </Text>
        )}
        {presetOutcome && (
          <Alert
            mt="xs"
            color={presetOutcome.missing.length ? 'yellow' : 'teal'}
            role="status"
            withCloseButton
            onClose={() => setPresetOutcome(null)}
          >
            {presetOutcome.message}
            {presetOutcome.missing.length > 0 && (
              <Text fz="sm" mt={4}>
                Not on your servers yet:{' '}
                {presetOutcome.missing.map((name) => (
                  <Badge key={name} variant="light" color="yellow" mr={4}>
                    {name}
                  </Badge>
                ))}
              </Text>
            )}
          </Alert>
        )}
      </div>
    </Stack>
  );
}
