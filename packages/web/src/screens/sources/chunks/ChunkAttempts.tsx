import { useState } from 'react';
import { Button, Card, Group, SegmentedControl, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { chatProviders, type ChatProvider } from '@rhizome/contracts/settings';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { api, messageOf } from '../../../lib/api.ts';
import { useEndpoint } from '../../../lib/data/use-endpoint.ts';
import { formatDate } from '../../../lib/format.ts';
import { choiceLabel } from '../../settings/settings-text.ts';
import { AttemptDetail } from './AttemptDetail.tsx';

const providerChoices = chatProviders.map((provider) => ({ value: provider, label: choiceLabel(provider) }));

/** A chunk's attempts, newest first, the chosen one in full, and a re-run with an optional other provider or model. */
export function ChunkAttempts({
  sourceId,
  chunkIndex,
  running,
}: {
  sourceId: string;
  chunkIndex: number;
  running: boolean;
}) {
  const attempts = useEndpoint(
    extractionEndpoints.attempts,
    { params: { source_id: sourceId, chunk_index: chunkIndex } },
    { refreshMs: running ? 1000 : false },
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const [provider, setProvider] = useState<ChatProvider | null>(null);
  const [model, setModel] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const rerun = async () => {
    setSending(true);
    setProblem(null);
    try {
      await api.call(extractionEndpoints.rerun, {
        params: { source_id: sourceId, chunk_index: chunkIndex },
        body: { ...(provider ? { provider } : {}), ...(model.trim() ? { model: model.trim() } : {}) },
      });
      setChosen(null);
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setSending(false);
    }
  };

  if (attempts.error)
    return (
      <ErrorNotice
        title="Could not load the attempts"
        message={attempts.error}
        onRetry={() => void attempts.reload()}
      />
    );
  if (!attempts.data) return <Skeleton h={200} />;
  const list = attempts.data.data;
  const shown = chosen ?? list[0]?.id ?? null;
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Title order={3} fz="md">
          Chunk {chunkIndex + 1}: {list.length === 1 ? '1 attempt' : `${list.length} attempts`}
        </Title>
        <Group align="flex-end" gap="xs">
          <Select
            label="Provider for the re-run"
            placeholder="The configured one"
            data={providerChoices}
            value={provider}
            onChange={(value) => setProvider(value as ChatProvider | null)}
            clearable
            style={{ flex: '1 1 160px' }}
          />
          <TextInput
            label="Model for the re-run"
            placeholder={provider ? `${choiceLabel(provider)}'s configured one` : 'The configured one'}
            value={model}
            onChange={(event) => setModel(event.currentTarget.value)}
            style={{ flex: '1 1 160px' }}
          />
          <Button onClick={() => void rerun()} loading={sending} disabled={running}>
            Re-run this chunk
          </Button>
        </Group>
        {running && (
          <Text fz="sm" c="dimmed">
            Extraction in progress: the new attempt appears when it ends.
          </Text>
        )}
        {problem && (
          <Text c="red" fz="sm" role="alert">
            {problem}
          </Text>
        )}
        {list.length === 0 ? (
          <Text fz="sm" c="dimmed">
            No attempt recorded for this chunk (attempts are kept for a limited number of days).
          </Text>
        ) : (
          <>
            <SegmentedControl
              aria-label="Attempt"
              value={shown ?? ''}
              onChange={setChosen}
              data={list.map((attempt) => ({
                value: attempt.id,
                label: `#${attempt.attempt_number} · ${formatDate(attempt.completed_at)}`,
              }))}
              style={{ maxWidth: '100%', overflowX: 'auto' }}
            />
            {shown && <AttemptDetail key={shown} sourceId={sourceId} chunkIndex={chunkIndex} attemptId={shown} />}
          </>
        )}
      </Stack>
    </Card>
  );
}
