import { useEffect, useState } from 'react';
import { Alert, Button, Group, PasswordInput, Select, Stack, Text } from '@mantine/core';
import { llmEndpoints } from '@rhizome/contracts/api/llm';
import { presetEndpoints, type CloudModel } from '@rhizome/contracts/api/presets';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { api, messageOf } from '../lib/api.ts';
import { useLocalServerCheck } from '../lib/use-local-server-check.ts';
import { ChoiceCards, type Choice } from './ChoiceCards.tsx';
import { LocalServerField } from './LocalServerField.tsx';

type Kind = 'builtin' | 'localllm' | 'cloud';
type Cloud = 'openai' | 'anthropic' | 'gemini';

const choices: Choice<Kind>[] = [
  {
    value: 'builtin',
    label: 'Builtin, offline',
    gives: 'Works at once, with nothing to install. Answers quote your passages; entities are found by rules.',
    costs: 'Free, and nothing leaves this machine. Answers are never written in its own words.',
  },
  {
    value: 'localllm',
    label: 'A model server on your network',
    gives: 'Written answers and much richer extraction, by Ollama or a server speaking its API.',
    costs: 'Free and private; needs the server and a graphics card with 8 GB or more for good models.',
  },
  {
    value: 'cloud',
    label: 'A cloud provider',
    gives: 'The strongest models without any hardware: OpenAI, Anthropic or Google Gemini.',
    costs: 'Paid per token at the provider’s prices (shown per model); your passages are sent to the provider.',
  },
];

const clouds: { value: Cloud; label: string }[] = [
  { value: 'openai', label: 'OpenAI' },
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'gemini', label: 'Google Gemini' },
];

export interface ModelChoice {
  /** The local server verified and saved, for the embedding step to offer its models. */
  localServer: { url: string; models: string[] } | null;
}

/** The first run's model step: each choice verified before it is kept. */
export function ModelStep({ onDone }: { onDone: (choice: ModelChoice) => void }) {
  const [kind, setKind] = useState<Kind>('builtin');
  const [url, setUrl] = useState('http://127.0.0.1:11434');
  const [model, setModel] = useState<string | null>(null);
  const [cloud, setCloud] = useState<Cloud>('openai');
  const [apiKey, setApiKey] = useState('');
  const [cloudModels, setCloudModels] = useState<CloudModel[]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { checks, verify } = useLocalServerCheck();
  const check = checks[url];
  const found = check && check !== 'checking' && check.success ? (check.models ?? []) : [];

  useEffect(() => {
    if (kind !== 'cloud') return;
    void api
      .call(presetEndpoints.cloudModelsOf, { params: { provider: cloud } })
      .then((models) => {
        setCloudModels(models);
        setModel(models.find((item) => item.recommended)?.id ?? models[0]?.id ?? null);
      })
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [kind, cloud]);

  const patch = (body: Record<string, unknown>) => api.call(settingsEndpoints.patch, { body });
  const save = async () => {
    setBusy(true);
    setFailure(null);
    try {
      if (kind === 'builtin') {
        await patch({ llm: { chat_provider: 'builtin' } });
        return onDone({ localServer: null });
      }
      if (kind === 'localllm' && model) {
        await patch({
          llm: {
            chat_provider: 'localllm',
            localllm_instances: [{ id: 'default', name: 'Local', base_url: url.trim(), enabled: true, healthy: false }],
            localllm_chat_model: model,
            localllm_extraction_model: model,
          },
        });
        return onDone({ localServer: { url: url.trim(), models: found } });
      }
      if (kind === 'cloud' && model) {
        await patch({ llm: { chat_provider: cloud, [`${cloud}_api_key`]: apiKey, [`${cloud}_chat_model`]: model } });
        const health = await api.call(llmEndpoints.health, { query: { fresh: true } });
        if (health.verified) return onDone({ localServer: null });
        // Not kept: the offline model answers until a provider that answers is set up.
        await patch({ llm: { chat_provider: 'builtin' } });
        setFailure(`${health.message} The builtin model stays in use.`);
      }
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const chosen = cloudModels.find((item) => item.id === model);
  const ready = kind === 'builtin' || (kind === 'localllm' ? !!model && found.includes(model) : !!model && !!apiKey);

  return (
    <Stack gap="sm">
      <ChoiceCards label="Model" choices={choices} value={kind} onChange={setKind} />
      {kind === 'localllm' && (
        <>
          <LocalServerField url={url} onUrl={setUrl} check={check} onTest={() => void verify(url)} />
          {found.length > 0 && (
            <Select
              label="Model for answers and extraction"
              data={found}
              value={model}
              onChange={setModel}
              searchable
              comboboxProps={{ withinPortal: true }}
            />
          )}
        </>
      )}
      {kind === 'cloud' && (
        <>
          <Select
            label="Provider"
            data={clouds}
            value={cloud}
            onChange={(value) => value && setCloud(value as Cloud)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <PasswordInput
            label="API key"
            value={apiKey}
            onChange={(event) => setApiKey(event.currentTarget.value)}
            autoComplete="off"
          />
          <Select
            label="Model"
            data={cloudModels.map((item) => ({ value: item.id, label: item.display_name }))}
            value={model}
            onChange={setModel}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {chosen && (
            <Text fz="xs" c="dimmed">
              ${chosen.pricing.input_per_million.toFixed(2)} in / ${chosen.pricing.output_per_million.toFixed(2)} out
              per million tokens · context {chosen.context_window.toLocaleString()} tokens
            </Text>
          )}
        </>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="subtle" onClick={() => onDone({ localServer: null })}>
          Skip
        </Button>
        <Button onClick={() => void save()} loading={busy} disabled={!ready}>
          {kind === 'cloud' ? 'Verify and save' : 'Save and continue'}
        </Button>
      </Group>
    </Stack>
  );
}
