import { Button, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import type { CloudModel } from '@rhizome/contracts/api/presets';

export interface CloudDraft {
  /** A newly typed key; '' keeps the stored one, null removes it. */
  apiKey: string | null;
  baseUrl: string;
  model: string;
}

interface Props {
  name: string;
  draft: CloudDraft;
  onChange: (draft: CloudDraft) => void;
  /** Whether a key is stored (the API only says "configured", never the key). */
  keyStored: boolean;
  models: CloudModel[];
  errors: Partial<Record<'apiKey' | 'baseUrl' | 'model', string>>;
}

const price = (value: number) => `$${value.toFixed(2)}`;

/** A cloud provider: its API key (masked, never echoed), address and model from the provider's list. */
export function SettingsCloudProvider({ name, draft, onChange, keyStored, models, errors }: Props) {
  const data = models.map((model) => ({
    value: model.id,
    label: `${model.display_name}${model.recommended ? ' (recommended)' : ''}`,
  }));
  if (draft.model && !models.some((model) => model.id === draft.model))
    data.unshift({ value: draft.model, label: draft.model });
  const chosen = models.find((model) => model.id === draft.model);
  return (
    <Stack gap="sm">
      <div>
        <PasswordInput
          label={`${name} API key`}
          description={
            keyStored ? 'A key is stored; it is never shown. Paste a new one to replace it.' : 'No key stored yet.'
          }
          placeholder={
            draft.apiKey === null ? 'Will be removed when you save' : keyStored ? '••••••••' : 'Paste your key'
          }
          value={draft.apiKey ?? ''}
          onChange={(event) => onChange({ ...draft, apiKey: event.currentTarget.value })}
          error={errors.apiKey}
          autoComplete="off"
        />
        {keyStored && draft.apiKey !== null && (
          <Button
            variant="subtle"
            color="red"
            size="compact-xs"
            mt={4}
            onClick={() => onChange({ ...draft, apiKey: null })}
          >
            Remove the stored key
          </Button>
        )}
        {draft.apiKey === null && (
          <Button variant="subtle" size="compact-xs" mt={4} onClick={() => onChange({ ...draft, apiKey: '' })}>
            Keep the stored key
          </Button>
        )}
      </div>
      <Select
        label="Model"
        data={data}
        value={draft.model}
        onChange={(value) => value && onChange({ ...draft, model: value })}
        searchable
        allowDeselect={false}
        error={errors.model}
        comboboxProps={{ withinPortal: true }}
      />
      {chosen && (
        <Group gap="md">
          <Text fz="xs" c="dimmed">
            Context {chosen.context_window.toLocaleString()} tokens
          </Text>
          <Text fz="xs" c="dimmed">
            Output up to {chosen.max_output_tokens.toLocaleString()}
          </Text>
          <Text fz="xs" c="dimmed">
            {price(chosen.pricing.input_per_million)} in / {price(chosen.pricing.output_per_million)} out per million
            tokens
          </Text>
          {chosen.supports_vision && (
            <Text fz="xs" c="dimmed">
              Reads images
            </Text>
          )}
        </Group>
      )}
      <TextInput
        label="API address"
        description="Change it only for a proxy or a compatible service."
        value={draft.baseUrl}
        onChange={(event) => onChange({ ...draft, baseUrl: event.currentTarget.value })}
        error={errors.baseUrl}
      />
    </Stack>
  );
}
