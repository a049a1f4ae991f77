import { useState } from 'react';
import { Anchor, Badge, Breadcrumbs, Button, Card, Group, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { messageOf } from '../../lib/api.ts';
import { formatDate, humanise } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { eventLabel, executionStatusColors, formatDuration } from './automation-data.ts';
import { RunWorkflowModal } from './RunWorkflowModal.tsx';
import { StepsEditor } from './builder/StepsEditor.tsx';
import { useToolCatalog } from './tool-catalog.ts';
import { downloadWorkflow } from './workflow-files.ts';
import { WorkflowSettings } from './WorkflowSettings.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

const listOfWorkflows = { tag: workflowEndpoints.list.tag, endpoint: workflowEndpoints.list };

/** One workflow: its steps on a canvas or in a list (one draft, saved at once), its settings, the triggers that start it and its latest runs. */
export default function WorkflowEditor() {
  const { workflowId = '' } = useParams();
  const navigate = useNavigate();
  const params = { workflow_id: workflowId };
  const workflow = useEndpoint(workflowEndpoints.get, { params });
  const triggers = useEndpoint(workflowEndpoints.triggers, { params });
  const executions = useEndpoint(workflowEndpoints.executions, { params, query: { page_size: 10 } });
  const choices = useToolCatalog();
  const [running, setRunning] = useState(false);
  const [deleting, setDeleting] = useState(false);
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
            disabled={!current.is_active || current.steps.length === 0}
            onClick={() => setRunning(true)}
          >
            Run…
          </Button>
        </Group>
      </Group>

      <StepsEditor workflow={current} catalog={choices.data} onSaved={workflow.reload} />

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

      <RunWorkflowModal workflowId={running ? current.id : null} onClose={() => setRunning(false)} />
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
