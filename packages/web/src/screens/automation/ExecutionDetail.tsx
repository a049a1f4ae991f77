import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerStop } from '@tabler/icons-react';
import { Link, useParams } from 'react-router-dom';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { messageOf } from '../../lib/api.ts';
import { countOf, formatDate, humanise } from '../../lib/format.ts';
import { DagView } from '../../components/DagView.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { JsonBlock } from '../../components/JsonBlock.tsx';
import { executionStatusColors, formatDuration } from './automation-data.ts';
import { toolNameOf, useToolCatalog } from './tool-catalog.ts';
import { useRefreshWhile } from './use-refresh-while.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** One run: what went in and came out, and every step with its input, output, timing, attempts and error. */
export default function ExecutionDetail() {
  const { executionId = '' } = useParams();
  const execution = useEndpoint(workflowEndpoints.execution, { params: { execution_id: executionId } });
  const workflow = useEndpoint(
    workflowEndpoints.get,
    execution.data ? { params: { workflow_id: execution.data.workflow_id } } : null,
  );
  const cancelRun = useAction(workflowEndpoints.cancelExecution);
  const catalog = useToolCatalog();
  const unfinished = execution.data?.status === 'queued' || execution.data?.status === 'running';
  useRefreshWhile(unfinished, () => void execution.reload());

  if (execution.error)
    return (
      <ErrorNotice title="Could not load the run" message={execution.error} onRetry={() => void execution.reload()} />
    );
  if (!execution.data) return <Skeleton h={400} radius="md" />;
  const run = execution.data;

  async function cancel() {
    try {
      await cancelRun.run({ params: { execution_id: run.id } });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not cancel the run', message: messageOf(error) });
    }
  }

  const name = workflow.data?.name ?? run.workflow_id;
  const runStatus = new Map(run.steps.map((step) => [step.step_id, step.status]));
  const dagSteps = (workflow.data?.steps ?? []).map((step) => ({
    ...step,
    tool: toolNameOf(catalog.data, step.tool_type, step.tool_id),
    status: runStatus.get(step.id) ?? 'not run',
  }));
  return (
    <Stack gap="md">
      <Breadcrumbs>
        <Anchor component={Link} to="/automation/executions" fz="sm">
          Executions
        </Anchor>
        <Text fz="sm">{formatDate(run.created_at)}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end">
        <div>
          <Group gap="xs">
            <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
              Run of {name}
            </Title>
            <Badge size="lg" variant="light" color={executionStatusColors[run.status]} data-testid="execution-status">
              {humanise(run.status)}
            </Badge>
          </Group>
          <Text fz="sm" c="dimmed" mt={2}>
            <Anchor component={Link} to={`/automation/workflows/${run.workflow_id}`} fz="sm" underline="always">
              Open the workflow
            </Anchor>
            {run.trigger_id && ' · started by a trigger'}
            {run.parent_execution_id && (
              <>
                {' '}
                · part of{' '}
                <Anchor
                  component={Link}
                  to={`/automation/executions/${run.parent_execution_id}`}
                  fz="sm"
                  underline="always"
                >
                  another run
                </Anchor>
              </>
            )}
          </Text>
        </div>
        {unfinished && (
          <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} />} onClick={() => void cancel()}>
            Cancel the run
          </Button>
        )}
      </Group>
      {run.error && (
        <Alert color="red" title="The run failed" role="alert">
          {run.error}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Fact label="Queued" value={formatDate(run.created_at)} />
        <Fact label="Started" value={formatDate(run.started_at)} />
        <Fact label="Finished" value={formatDate(run.completed_at)} />
        <Fact label="Duration" value={formatDuration(run.duration_ms)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="xs">
            Inputs
          </Title>
          <JsonBlock value={run.inputs} label="Inputs of the run" />
        </Card>
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="xs">
            Outputs
          </Title>
          <JsonBlock value={run.outputs} label="Outputs of the run" empty={unfinished ? 'Not finished yet' : 'None'} />
        </Card>
      </SimpleGrid>
      {dagSteps.length > 0 && (
        <DagView steps={dagSteps} label={`The steps of ${name} with the outcome of each in this run`} height={220} />
      )}
      <Card withBorder radius="md">
        <Title order={2} fz="lg" mb="xs">
          Steps ({run.steps.length})
        </Title>
        {run.steps.length === 0 && (
          <Text fz="sm" c="dimmed">
            {unfinished ? 'No step has started yet.' : 'No step ran.'}
          </Text>
        )}
        <Accordion
          multiple
          variant="separated"
          defaultValue={run.steps.filter((step) => step.status === 'failed').map((step) => step.step_id)}
        >
          {run.steps.map((step) => (
            <Accordion.Item key={step.step_id} value={step.step_id} data-step-id={step.step_id}>
              <Accordion.Control>
                <Group gap="xs" wrap="nowrap">
                  <Badge variant="light" color={executionStatusColors[step.status]}>
                    {humanise(step.status)}
                  </Badge>
                  <Text fz="sm" fw={600} truncate>
                    {step.step_number}. {step.name}
                  </Text>
                  <Text fz="xs" c="dimmed" className="hide-narrow">
                    {toolNameOf(catalog.data, step.tool_type, step.tool_id)}
                  </Text>
                  <Text fz="xs" c="dimmed" ml="auto">
                    {formatDuration(step.duration_ms)}
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  <Text fz="xs" c="dimmed">
                    Started {formatDate(step.started_at)} · finished {formatDate(step.completed_at)} ·{' '}
                    {countOf(step.attempts, 'attempt')}
                  </Text>
                  {step.error && (
                    <Alert color="red" p="xs" role="alert">
                      {step.error}
                    </Alert>
                  )}
                  <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
                    <div>
                      <Text fz="sm" fw={600} mb={4}>
                        Input
                      </Text>
                      <JsonBlock value={step.input} label={`Input of ${step.name}`} />
                    </div>
                    <div>
                      <Text fz="sm" fw={600} mb={4}>
                        Output
                      </Text>
                      <JsonBlock value={step.output} label={`Output of ${step.name}`} empty="No output" />
                    </div>
                  </SimpleGrid>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Card>
      {run.child_execution_ids.length > 0 && (
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="xs">
            Runs of nested workflows
          </Title>
          {run.child_execution_ids.map((id, index) => (
            <Anchor key={id} component={Link} to={`/automation/executions/${id}`} display="block" fz="sm">
              Nested run {index + 1}
            </Anchor>
          ))}
        </Card>
      )}
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm">{value}</Text>
    </div>
  );
}
