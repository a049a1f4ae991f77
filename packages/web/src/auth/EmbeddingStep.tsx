import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { api, messageOf } from '../lib/api.ts';
import { ChoiceCards, type Choice } from './ChoiceCards.tsx';
import type { ModelChoice } from './ModelStep.tsx';

type Kind = 'builtin' | 'localllm';

const choices: Choice<Kind>[] = [
  {
    value: 'builtin',
    label: 'Builtin word vectors',
    gives: 'Search by meaning at once, offline, tuned to your own documents as they arrive.',
    costs: 'Free; 100 dimensions, so it finds close wording better than close ideas.',
  },
  {
    value: 'localllm',
    label: 'An embedding model on your model server',
    gives: 'Sentence embeddings that match ideas, not only words (for example qwen3-embedding).',
    costs: 'Free and private; every passage is sent to the server once, which takes a while for large collections.',
  },
];

/** The first run's embedding step: the builtin vectors, or an embedding model the verified server has. */
export function EmbeddingStep({ model, onDone }: { model: ModelChoice; onDone: () => void }) {
  const server = model.localServer;
  const candidates = server
    ? [...server.models].sort((a, b) => Number(b.includes('embed')) - Number(a.includes('embed')))
    : [];
  const [kind, setKind] = useState<Kind>('builtin');
  const [embedding, setEmbedding] = useState<string | null>(candidates.find((name) => name.includes('embed')) ?? null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const save = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const body =
        kind === 'localllm' && embedding
          ? {
              embedding: { provider: 'localllm', model: embedding, localllm_instance_id: 'default' },
              search: { embedding_model: embedding },
            }
          : { embedding: { provider: 'builtin' } };
      await api.call(settingsEndpoints.patch, { body });
      onDone();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      <ChoiceCards label="Embeddings" choices={choices} value={kind} onChange={setKind} />
      {kind === 'localllm' &&
        (server ? (
          <Select
            label={`Embedding model on ${server.url}`}
            data={candidates}
            value={embedding}
            onChange={setEmbedding}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Text fz="sm" c="dimmed">
            Connect a model server in the step before (or later in Settings) to choose one of its models.
          </Text>
        ))}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="subtle" onClick={onDone}>
          Skip
        </Button>
        <Button onClick={() => void save()} loading={busy} disabled={kind === 'localllm' && !embedding}>
          Save and finish
        </Button>
      </Group>
    </Stack>
  );
}
