import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { searchIndexEndpoints } from '@rhizome/contracts/api/search-indexes';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import type { EmbeddingProvider } from '@rhizome/contracts/settings';
import { api, messageOf } from '../../lib/api.ts';
import { useRefresh } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

interface Choice {
  value: string;
  label: string;
  provider: EmbeddingProvider;
  model: string;
  dimensions: number;
}

/** The embedding model: the curated and hosted ones with their dimensions, the dimension check, and a re-embed. */
export function EmbeddingModels() {
  const catalogue = useEndpoint(settingsEndpoints.embeddingModels);
  const refresh = useRefresh();
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'reembed' | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const data = catalogue.data;
  const choices: Choice[] = data
    ? [
        ...data.curated.map((entry) => ({
          value: `${entry.ollama ? 'localllm' : 'builtin'}:${entry.name}`,
          label: `${entry.name} · ${entry.dimensions} dimensions${entry.ollama ? ' · local server' : ' · built in'}`,
          provider: (entry.ollama ? 'localllm' : 'builtin') as EmbeddingProvider,
          model: entry.name,
          dimensions: entry.dimensions,
        })),
        ...Object.entries(data.cloud).flatMap(([provider, entries]) =>
          entries.map((entry) => ({
            value: `${provider}:${entry.model}`,
            label: `${entry.name} · ${entry.dimensions} dimensions`,
            provider: provider as EmbeddingProvider,
            model: entry.model,
            dimensions: entry.dimensions,
          })),
        ),
      ]
    : [];
  const currentValue = data ? `${data.current.provider}:${data.current.model}` : null;
  const selected = choices.find((choice) => choice.value === (chosen ?? currentValue));
  const stored = data?.current.vector_dimensions;
  const dimensionChange = selected && stored !== undefined && selected.dimensions !== stored;

  async function act(kind: 'save' | 'reembed') {
    if (!selected) return;
    setBusy(kind);
    setOutcome(null);
    try {
      if (kind === 'save') {
        await api.call(settingsEndpoints.patch, {
          body: { embedding: { provider: selected.provider, model: selected.model } },
        });
        await refresh([{ tag: 'settings' }]);
        setChosen(null);
        setOutcome({ ok: true, text: `Embedding with ${selected.model} from now on.` });
      } else {
        const answer = await api.call(searchIndexEndpoints.rebuild);
        setOutcome({ ok: true, text: answer.message });
      }
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={4}>Embedding model</Title>
        {catalogue.error && <Alert color="red">{catalogue.error}</Alert>}
        <Select
          label="Model"
          data={choices.map(({ value, label }) => ({ value, label }))}
          value={selected?.value ?? null}
          onChange={setChosen}
          allowDeselect={false}
          searchable
        />
        {dimensionChange && (
          <Alert color="yellow" title="A dimension change needs a re-embed">
            The stored vectors have {stored} dimensions and {selected.model} makes {selected.dimensions}: after saving,
            re-embed so that semantic search uses the new model.
          </Alert>
        )}
        <Group>
          <Button
            onClick={() => void act('save')}
            disabled={!selected || selected.value === currentValue}
            loading={busy === 'save'}
          >
            Use this model
          </Button>
          <Button variant="light" onClick={() => void act('reembed')} loading={busy === 'reembed'}>
            Re-embed everything
          </Button>
        </Group>
        {outcome && (
          <Text size="sm" c={outcome.ok ? 'teal.8' : 'red.8'} role="status">
            {outcome.text}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
