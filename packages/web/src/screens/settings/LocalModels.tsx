import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { llmEndpoints } from '@rhizome/contracts/api/llm';
import { localLlmModelEndpoints, type PullEventBody } from '@rhizome/contracts/api/localllm';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api, messageOf } from '../../lib/api.ts';
import { formatBytes } from '../../lib/format.ts';
import { useAction, useRefresh } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

type Details = ResponseOf<typeof localLlmModelEndpoints.details>;
type Model = { name: string; instance_id: string };
/** The pull's latest state per server. */
type PullState = Record<string, PullEventBody>;

const ALL = '__all__';

function progressOf(event: PullEventBody): number {
  if (event.status === 'success') return 100;
  if (event.status === 'downloading' && event.total > 0) return Math.round((event.completed / event.total) * 100);
  return 0;
}

function stepOf(event: PullEventBody): string {
  if (event.status === 'success') return 'Installed';
  if (event.status === 'error') return event.error;
  return event.message || 'Starting';
}

/** The models of the local model servers: each one's details, a pull with its progress, and removal. */
export function LocalModels({ servers }: { servers: { id: string; name: string }[] }) {
  const installed = useEndpoint(llmEndpoints.localModels);
  const refresh = useRefresh();
  const remove = useAction(localLlmModelEndpoints.remove, { refreshes: [{ tag: 'settings' }] });
  const [details, setDetails] = useState<{ key: string; value: Details | string } | null>(null);
  const [removing, setRemoving] = useState<Model | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const [wanted, setWanted] = useState('');
  const [target, setTarget] = useState<string>(ALL);
  const [pull, setPull] = useState<PullState | null>(null);
  const [pulling, setPulling] = useState(false);
  const serverName = (id: string) => servers.find((server) => server.id === id)?.name || id;

  async function showDetails(model: Model) {
    const key = `${model.instance_id}/${model.name}`;
    if (details?.key === key) return setDetails(null);
    try {
      const value = await api.call(localLlmModelEndpoints.details, {
        params: { model: model.name },
        query: { instance_id: model.instance_id },
      });
      setDetails({ key, value });
    } catch (error) {
      setDetails({ key, value: messageOf(error) });
    }
  }

  async function startPull() {
    setPulling(true);
    setPull({});
    try {
      await api.streamCall(
        localLlmModelEndpoints.pull,
        { body: { model: wanted.trim(), ...(target === ALL ? {} : { instance_id: target }) } },
        (data) => {
          const event = JSON.parse(data) as PullEventBody;
          setPull((state) => ({ ...state, [event.instance_id]: event }));
        },
      );
    } catch (error) {
      setPull({ request: { status: 'error', instance_id: 'request', error: messageOf(error) } });
    } finally {
      setPulling(false);
      await refresh([{ tag: 'settings' }]);
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    setRemoveError(null);
    try {
      const answer = await remove.run({ body: { model: removing.name, instance_id: removing.instance_id } });
      const failed = answer.results.find((result) => !result.success);
      if (failed) setRemoveError(failed.error);
      else setRemoving(null);
    } catch (error) {
      setRemoveError(messageOf(error));
    }
  }

  const models = (installed.data?.models ?? []) as (Model & { size: number; details?: { parameter_size?: string } })[];
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={4}>Models on your local servers</Title>
        {installed.error && (
          <Alert color="yellow" title="The servers did not answer">
            {installed.error}
          </Alert>
        )}
        {models.length > 0 && (
          <Table verticalSpacing="xs" aria-label="Installed models">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Model</Table.Th>
                <Table.Th>Server</Table.Th>
                <Table.Th visibleFrom="sm">Size</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {models.map((model) => {
                const key = `${model.instance_id}/${model.name}`;
                const shown = details?.key === key ? details.value : null;
                return [
                  <Table.Tr key={key}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {model.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>{serverName(model.instance_id)}</Table.Td>
                    <Table.Td visibleFrom="sm">{formatBytes(model.size)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end">
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          aria-expanded={shown !== null}
                          aria-label={`Details of ${model.name} on ${serverName(model.instance_id)}`}
                          onClick={() => void showDetails(model)}
                        >
                          Details
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${model.name} from ${serverName(model.instance_id)}`}
                          onClick={() => setRemoving(model)}
                        >
                          Remove
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>,
                  shown !== null && (
                    <Table.Tr key={`${key}-details`}>
                      <Table.Td colSpan={4}>
                        {typeof shown === 'string' ? (
                          <Text size="sm" c="red.8">
                            {shown}
                          </Text>
                        ) : (
                          <Group gap="xs" data-testid="model-details">
                            {[
                              shown.details.family,
                              shown.details.parameter_size,
                              shown.details.quantization_level,
                              shown.details.format,
                            ]
                              .filter((value): value is string => Boolean(value))
                              .map((value) => (
                                <Badge key={value} variant="light">
                                  {value}
                                </Badge>
                              ))}
                            {shown.capabilities.map((capability) => (
                              <Badge key={capability} variant="outline">
                                {capability}
                              </Badge>
                            ))}
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ),
                ];
              })}
            </Table.Tbody>
          </Table>
        )}
        {!installed.error && !installed.loading && models.length === 0 && (
          <Text size="sm" c="dimmed">
            No models installed yet.
          </Text>
        )}
        <Group align="end" wrap="wrap">
          <TextInput
            label="Model to pull"
            placeholder="qwen3:8b"
            value={wanted}
            onChange={(event) => setWanted(event.currentTarget.value)}
            style={{ flex: '1 1 12rem' }}
          />
          <Select
            label="Onto"
            data={[
              { value: ALL, label: 'Every enabled server' },
              ...servers.map((server) => ({ value: server.id, label: server.name || server.id })),
            ]}
            value={target}
            onChange={(value) => setTarget(value ?? ALL)}
            allowDeselect={false}
            style={{ flex: '1 1 10rem' }}
          />
          <Button onClick={() => void startPull()} disabled={!wanted.trim()} loading={pulling}>
            Pull
          </Button>
        </Group>
        {pull &&
          Object.values(pull).map((event) => (
            <Stack key={event.instance_id} gap={4}>
              <Progress
                value={progressOf(event)}
                color={event.status === 'error' ? 'red' : event.status === 'success' ? 'teal' : 'blue'}
                aria-label={`Pull onto ${serverName(event.instance_id)}`}
              />
              <Text size="xs" c={event.status === 'error' ? 'red.8' : 'dimmed'} role="status">
                {serverName(event.instance_id)}: {stepOf(event)}
              </Text>
            </Stack>
          ))}
      </Stack>
      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title="Remove the model?">
        {removing && (
          <Stack gap="sm">
            <Text size="sm">
              {removing.name} is deleted from {serverName(removing.instance_id)}; pull it again to use it.
            </Text>
            {removeError && (
              <Text size="sm" c="red.8">
                {removeError}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRemoving(null)}>
                Keep it
              </Button>
              <Button color="red" onClick={() => void confirmRemove()} loading={remove.pending}>
                Remove
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
