import { useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Group,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPencil, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { messageOf } from '../../lib/api.ts';
import { formatDate, humanise } from '../../lib/format.ts';
import { DagView } from '../../components/DagView.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { eventLabel, executionStatusColors, formatDuration, type Step } from './automation-data.ts';
import { RunWorkflowModal } from './RunWorkflowModal.tsx';
import { StepModal } from './StepModal.tsx';
import { toolKindNames, toolNameOf, useToolCatalog } from './tool-catalog.ts';
import { downloadWorkflow } from './workflow-files.ts';
import { WorkflowSettings } from './WorkflowSettings.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

const listOfWorkflows = { tag: workflowEndpoints.list.tag, endpoint: workflowEndpoints.list };

/** One workflow: its steps as a graph and a list (add, edit, delete), its settings, the triggers that start it and its latest runs. */
export default function WorkflowEditor() {
  const { workflowId = '' } = useParams();
  const navigate = useNavigate();
  const params = { workflow_id: workflowId };
  const workflow = useEndpoint(workflowEndpoints.get, { params });
  const triggers = useEndpoint(workflowEndpoints.triggers, { params });
  const executions = useEndpoint(workflowEndpoints.executions, { params, query: { page_size: 10 } });
  const choices = useToolCatalog();
  const [editing, setEditing] = useState<Step | 'new' | null>(null);
  const [removing, setRemoving] = useState<Step | null>(null);
  const [running, setRunning] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const deleteStep = useAction(workflowEndpoints.removeStep);
  // The workflow's own reads would answer 404 before the screen is left.
  const deleteWorkflow = useAction(workflowEndpoints.remove, { refreshes: [listOfWorkflows] });
  const update = useAction(workflowEndpoints.update);

  if (workflow.error)
    return (
      <ErrorNotice
        title="Could not load the workflow"
        message={workflow.error}
        onRetry={() => void workflow.reload()}
      />
    );
  if (!workflow.data) return <Skeleton h={400} radius="md" />;
  const current = workflow.data;
  const locked = current.is_system;

  async function removeStep() {
    if (!removing) return;
    const step = removing;
    setRemoving(null);
    try {
      await deleteStep.run({ params: { workflow_id: current.id, step_id: step.id } });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `Could not delete the step “${step.name}”`,
        message: messageOf(error),
        autoClose: false,
      });
    }
  }
  async function removeWorkflow() {
    setDeleting(false);
    try {
      await deleteWorkflow.run({ params });
      notifications.show({ color: 'teal', message: `The workflow “${current.name}” is deleted.` });
      navigate('/automation/workflows');
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not delete “${current.name}”`, message: messageOf(error) });
    }
  }
  async function setActive(is_active: boolean) {
    try {
      await update.run({ params, body: { is_active } });
    } catch (error) {
      notifications.show({ color: 'red', message: messageOf(error) });
    }
  }

  const steps = [...current.steps]
    .sort((a, b) => a.step_number - b.step_number)
    .map((step) => ({ ...step, tool: toolNameOf(choices.data, step.tool_type, step.tool_id) }));
  const names = new Map(steps.map((step) => [step.id, step.name]));
  const after = (step: Step) => step.depends_on.map((id) => names.get(id) ?? id);
  return (
    <Stack gap="md">
      <Breadcrumbs>
        <Anchor component={Link} to="/automation/workflows" fz="sm">
          Workflows
        </Anchor>
        <Text fz="sm">{current.name}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end">
        <div>
          <Group gap="xs">
            <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
              {current.name}
            </Title>
            {locked && (
              <Badge variant="light" color="gray">
                Built-in
              </Badge>
            )}
            <Badge variant="outline" color="gray">
              version {current.version}
            </Badge>
          </Group>
          {current.description && (
            <Text c="dimmed" fz="sm" mt={2}>
              {current.description}
            </Text>
          )}
        </div>
        <Group gap="xs">
          <Switch
            label="Active"
            checked={current.is_active}
            onChange={(event) => void setActive(event.currentTarget.checked)}
          />
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() =>
              void downloadWorkflow(current.id, current.name).catch((error: unknown) =>
                notifications.show({ color: 'red', message: messageOf(error) }),
              )
            }
          >
            Export JSON
          </Button>
          {!locked && (
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDeleting(true)}
            >
              Delete…
            </Button>
          )}
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            disabled={!current.is_active || steps.length === 0}
            onClick={() => setRunning(true)}
          >
            Run…
          </Button>
        </Group>
      </Group>

      <Card withBorder radius="md">
        <Group justify="space-between" mb="sm">
          <div>
            <Title order={2} fz="lg">
              Steps
            </Title>
            <Text fz="sm" c="dimmed">
              A step starts when the steps it runs after have finished; steps with nothing in between run side by side.
            </Text>
          </div>
          {!locked && (
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing('new')}
              disabled={!choices.data}
            >
              Add a step
            </Button>
          )}
        </Group>
        {steps.length === 0 && (
          <Paper withBorder p="lg" radius="md" ta="center">
            <Text fz="sm" c="dimmed">
              No steps yet: add the first one.
            </Text>
          </Paper>
        )}
        {steps.length > 0 && (
          <Stack gap="sm">
            <DagView steps={steps} label={`The steps of ${current.name} and the order they run in`} />
            <Table.ScrollContainer minWidth={300}>
              <Table verticalSpacing="xs" aria-label="Steps">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>#</Table.Th>
                    <Table.Th>Step</Table.Th>
                    <Table.Th visibleFrom="sm">Tool</Table.Th>
                    <Table.Th visibleFrom="sm">Runs after</Table.Th>
                    <Table.Th w={80}>
                      <span className="visually-hidden">Actions</span>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {steps.map((step) => (
                    <Table.Tr key={step.id} data-step-id={step.id}>
                      <Table.Td>{step.step_number}</Table.Td>
                      <Table.Td>
                        <Text fz="sm" fw={600}>
                          {step.name}
                        </Text>
                        <Text fz="xs" c="dimmed" ff="monospace">
                          {step.id}
                        </Text>
                        <Text fz="xs" c="dimmed" hiddenFrom="sm">
                          {step.tool} · {step.depends_on.length ? `after ${after(step).join(', ')}` : 'runs first'}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <Text fz="sm">{step.tool}</Text>
                        <Text fz="xs" c="dimmed">
                          {toolKindNames[step.tool_type] ?? humanise(step.tool_type)}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        {step.depends_on.length ? (
                          <Group gap={4}>
                            {after(step).map((name) => (
                              <Badge key={name} size="sm" variant="light" tt="none">
                                {name}
                              </Badge>
                            ))}
                          </Group>
                        ) : (
                          <Text fz="sm" c="dimmed">
                            Runs first
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {!locked && (
                          <Group gap={2} wrap="nowrap">
                            <Tooltip label="Edit">
                              <ActionIcon
                                variant="subtle"
                                color="gray"
                                aria-label={`Edit ${step.name}`}
                                onClick={() => setEditing(step)}
                              >
                                <IconPencil size={16} />
                              </ActionIcon>
                            </Tooltip>
                            <Tooltip label="Delete">
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={`Delete ${step.name}`}
                                onClick={() => setRemoving(step)}
                              >
                                <IconTrash size={16} />
                              </ActionIcon>
                            </Tooltip>
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )}
      </Card>

      <WorkflowSettings key={current.updated_at} workflow={current} />

      <Card withBorder radius="md">
        <Group justify="space-between" mb="xs">
          <Title order={2} fz="lg">
            Triggers
          </Title>
          <Anchor component={Link} to={`/automation/triggers?workflow=${current.id}`} fz="sm">
            Add or change triggers
          </Anchor>
        </Group>
        {triggers.data?.length === 0 && (
          <Text fz="sm" c="dimmed">
            Nothing starts this workflow on its own: it runs when you run it.
          </Text>
        )}
        {triggers.data?.map((trigger) => (
          <Group key={trigger.id} gap="xs" py={4}>
            <Badge variant="light" color={trigger.enabled ? 'teal' : 'gray'}>
              {trigger.enabled ? 'On' : 'Off'}
            </Badge>
            <Text fz="sm" fw={600}>
              {trigger.name}
            </Text>
            <Text fz="sm" c="dimmed">
              {eventLabel(trigger.event_source)}
            </Text>
          </Group>
        ))}
      </Card>

      <Card withBorder radius="md">
        <Group justify="space-between" mb="xs">
          <Title order={2} fz="lg">
            Latest runs
          </Title>
          <Anchor component={Link} to={`/automation/executions?workflow=${current.id}`} fz="sm">
            All runs
          </Anchor>
        </Group>
        {executions.data?.data.length === 0 && (
          <Text fz="sm" c="dimmed">
            It has not run yet.
          </Text>
        )}
        {executions.data?.data.map((execution) => (
          <Group key={execution.id} gap="xs" py={4}>
            <Badge variant="light" color={executionStatusColors[execution.status]}>
              {humanise(execution.status)}
            </Badge>
            <Anchor component={Link} to={`/automation/executions/${execution.id}`} fz="sm">
              {formatDate(execution.created_at)}
            </Anchor>
            <Text fz="sm" c="dimmed">
              {formatDuration(execution.duration_ms)}
            </Text>
          </Group>
        ))}
      </Card>

      {choices.data && (
        <StepModal
          workflow={current}
          step={editing === 'new' ? null : editing}
          opened={editing !== null}
          choices={choices.data}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void workflow.reload();
          }}
        />
      )}
      <RunWorkflowModal workflowId={running ? current.id : null} onClose={() => setRunning(false)} />
      <ConfirmDelete
        opened={removing !== null}
        onKeep={() => setRemoving(null)}
        onDelete={() => void removeStep()}
        title={`Delete the step “${removing?.name ?? ''}”?`}
      >
        Steps that run after it or read its output must be changed first.
      </ConfirmDelete>
      <ConfirmDelete
        opened={deleting}
        onKeep={() => setDeleting(false)}
        onDelete={() => void removeWorkflow()}
        title={`Delete “${current.name}”?`}
      >
        Its steps, its executions and the triggers that start it are deleted too. This cannot be undone.
      </ConfirmDelete>
    </Stack>
  );
}
