import { useMemo } from 'react';
import { Badge, Button, Group, Paper, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconActivity, IconPlayerStop } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { executionStatusNames, workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { messageOf } from '../../lib/api.ts';
import { useChangeMode } from '../../lib/ChangesProvider.tsx';
import { countOf, formatDate, humanise } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { executionStatusColors, formatDuration, type Execution } from './automation-data.ts';
import { useRefreshWhile } from './use-refresh-while.ts';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

type Status = Execution['status'];
const pageSize = 100;

/** Workflow runs, newest first, filtered by workflow and outcome; running ones update live and can be cancelled. */
export function ExecutionsTab() {
  const [searchParams, setSearchParams] = useSearchParams();
  const workflowId = searchParams.get('workflow');
  const status = searchParams.get('status') as Status | null;
  const setFilter = (key: string, value: string | null) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const workflows = useEndpointPages(workflowEndpoints.list);
  const executions = useEndpoint(workflowEndpoints.allExecutions, {
    query: { workflow_id: workflowId ?? undefined, status: status ?? undefined, page_size: pageSize },
  });
  const names = useMemo(
    () => new Map((workflows.data ?? []).map((workflow) => [workflow.id, workflow.name])),
    [workflows.data],
  );
  const mode = useChangeMode();
  const cancelRun = useAction(workflowEndpoints.cancelExecution);

  useRefreshWhile(
    (executions.data?.data ?? []).some((execution) => execution.status === 'queued' || execution.status === 'running'),
    () => void executions.reload(),
    3_000,
  );

  async function cancel(execution: Execution) {
    try {
      await cancelRun.run({ params: { execution_id: execution.id } });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not cancel the run', message: messageOf(error) });
    }
  }

  const list = executions.data?.data ?? [];
  const total = executions.data?.pagination.total ?? 0;
  return (
    <Stack gap="md">
      <Group gap="xs" align="flex-end">
        <Select
          aria-label="Workflow"
          placeholder="Every workflow"
          clearable
          searchable
          data={(workflows.data ?? []).map((workflow) => ({ value: workflow.id, label: workflow.name }))}
          value={workflowId}
          onChange={(value) => setFilter('workflow', value)}
          w={{ base: '100%', sm: 260 }}
        />
        <Select
          aria-label="Outcome"
          placeholder="Any outcome"
          clearable
          data={executionStatusNames.map((name) => ({ value: name, label: humanise(name) }))}
          value={status}
          onChange={(value) => setFilter('status', value)}
          w={{ base: '100%', sm: 180 }}
        />
        <Badge variant="dot" color={mode === 'live' ? 'teal' : 'yellow'} size="lg" ml="auto">
          {mode === 'live' ? 'Live' : 'Reconnecting'}
        </Badge>
      </Group>
      {executions.error && (
        <ErrorNotice
          title="Could not load the runs"
          message={executions.error}
          onRetry={() => void executions.reload()}
        />
      )}
      {!executions.data && !executions.error && <Skeleton h={240} radius="md" />}
      {executions.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconActivity size={40} stroke={1.3} color="var(--mantine-color-dimmed)" />
          <Text fw={600} mt="xs">
            No runs{workflowId || status ? ' match these filters' : ' yet'}
          </Text>
          <Text fz="sm" c="dimmed">
            A run appears here when you run a workflow or a trigger starts one.
          </Text>
        </Paper>
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={340}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Run</Table.Th>
                <Table.Th w={130}>Outcome</Table.Th>
                <Table.Th w={120} visibleFrom="sm">
                  Started by
                </Table.Th>
                <Table.Th w={110} visibleFrom="sm">
                  Duration
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((execution) => (
                <Table.Tr key={execution.id} data-execution-id={execution.id}>
                  <Table.Td>
                    <Link to={`/automation/executions/${execution.id}`} className="source-link">
                      {names.get(execution.workflow_id) ?? execution.workflow_id}
                    </Link>
                    <Text fz="xs" c="dimmed" lineClamp={2} title={execution.error ?? undefined}>
                      {formatDate(execution.created_at)} · {formatDuration(execution.duration_ms)}
                      {execution.error ? ` · ${execution.error}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      size="sm"
                      variant="light"
                      color={executionStatusColors[execution.status]}
                      data-testid="execution-status"
                      styles={{ label: { overflow: 'visible' } }}
                    >
                      {humanise(execution.status)}
                    </Badge>
                    {(execution.status === 'queued' || execution.status === 'running') && (
                      <Button
                        display="block"
                        mt={4}
                        size="compact-xs"
                        variant="light"
                        color="red"
                        leftSection={<IconPlayerStop size={12} />}
                        aria-label={`Cancel the run of ${names.get(execution.workflow_id) ?? execution.workflow_id}`}
                        onClick={() => void cancel(execution)}
                      >
                        Cancel
                      </Button>
                    )}
                  </Table.Td>
                  <Table.Td fz="sm" visibleFrom="sm">
                    {execution.trigger_id ? 'a trigger' : execution.parent_execution_id ? 'another run' : 'you'}
                  </Table.Td>
                  <Table.Td fz="sm" visibleFrom="sm">
                    {formatDuration(execution.duration_ms)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {total > list.length && (
        <Text fz="sm" c="dimmed">
          The newest {list.length.toLocaleString()} of {countOf(total, 'run')}; filter by workflow or outcome to find
          older ones.
        </Text>
      )}
    </Stack>
  );
}
