import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  FileButton,
  Group,
  Menu,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconDots,
  IconDownload,
  IconFileImport,
  IconPlayerPlay,
  IconPlus,
  IconRoute,
  IconTrash,
} from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { countOf, formatDate, humanise } from '../../lib/format.ts';
import { runWithNotice } from '../../lib/notify-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDuration, formatRate, type Workflow } from './automation-data.ts';
import { RunWorkflowModal } from './RunWorkflowModal.tsx';
import { downloadWorkflow, importWorkflow } from './workflow-files.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** The workflows with their outcome statistics: create, import, run, export, switch on and off, delete. */
export function WorkflowsTab() {
  const workflows = useEndpointPages(workflowEndpoints.list);
  const stats = useEndpoint(workflowEndpoints.stats);
  const update = useAction(workflowEndpoints.update);
  const deleteWorkflow = useAction(workflowEndpoints.remove);
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [running, setRunning] = useState<Workflow | null>(null);
  const [deleting, setDeleting] = useState<Workflow | null>(null);

  async function importFile(file: File | null) {
    if (!file) return;
    try {
      const created = await importWorkflow(file);
      notifications.show({
        color: 'teal',
        message: `The workflow “${created.name}” is imported with ${countOf(created.steps.length, 'step')}.`,
      });
      navigate(`/automation/workflows/${created.id}`);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `Could not import ${file.name}`,
        message: messageOf(error),
        autoClose: false,
      });
    }
  }

  async function setActive(workflow: Workflow, is_active: boolean) {
    await runWithNotice(
      async () => {
        await update.run({ params: { workflow_id: workflow.id }, body: { is_active } });
      },
      { failure: `Could not change “${workflow.name}”` },
    );
  }

  async function remove() {
    if (!deleting) return;
    const { id, name } = deleting;
    setDeleting(null);
    await runWithNotice(
      async () => {
        await deleteWorkflow.run({ params: { workflow_id: id } });
      },
      { success: `The workflow “${name}” is deleted.`, failure: `Could not delete “${name}”` },
    );
  }

  const list = workflows.data ?? [];
  return (
    <Stack gap="md">
      {stats.data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Stat label="Workflows" value={`${stats.data.active_workflows} active of ${stats.data.total_workflows}`} />
          <Stat label="Executions" value={stats.data.total_executions.toLocaleString()} />
          <Stat label="Succeeded" value={stats.data.total_executions ? formatRate(stats.data.success_rate) : '—'} />
          <Stat label="Average duration" value={formatDuration(stats.data.average_duration_ms)} />
        </SimpleGrid>
      )}
      <Group gap="xs">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New workflow
        </Button>
        <FileButton onChange={(file) => void importFile(file)} accept="application/json,.json">
          {(props) => (
            <Button {...props} variant="default" leftSection={<IconFileImport size={16} />}>
              Import JSON…
            </Button>
          )}
        </FileButton>
      </Group>
      {workflows.error && (
        <ErrorNotice
          title="Could not load the workflows"
          message={workflows.error}
          onRetry={() => void workflows.reload()}
        />
      )}
      {!workflows.data && !workflows.error && <Skeleton h={240} radius="md" />}
      {workflows.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconRoute size={40} stroke={1.3} color="var(--mantine-color-dimmed)" />
          <Text fw={600} mt="xs">
            No workflows yet
          </Text>
          <Text fz="sm" c="dimmed">
            Create one, or import a workflow someone exported.
          </Text>
        </Paper>
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={340}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Workflows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Workflow</Table.Th>
                <Table.Th w={70} visibleFrom="sm">
                  Steps
                </Table.Th>
                <Table.Th w={80}>Active</Table.Th>
                <Table.Th w={200} visibleFrom="sm">
                  Changed
                </Table.Th>
                <Table.Th w={48}>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((workflow) => (
                <Table.Tr key={workflow.id} data-workflow-id={workflow.id}>
                  <Table.Td>
                    <Group gap={6}>
                      <Link to={`/automation/workflows/${workflow.id}`} className="source-link">
                        {workflow.name}
                      </Link>
                      {workflow.is_system && (
                        <Badge size="xs" variant="light" color="gray">
                          Built-in
                        </Badge>
                      )}
                      <Badge size="xs" variant="outline" color="gray">
                        {humanise(workflow.category)}
                      </Badge>
                    </Group>
                    {workflow.description && (
                      <Text fz="xs" c="dimmed" lineClamp={2}>
                        {workflow.description}
                      </Text>
                    )}
                    <Text fz="xs" c="dimmed" hiddenFrom="sm">
                      {countOf(workflow.step_count, 'step')} · changed {formatDate(workflow.updated_at)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{workflow.step_count}</Table.Td>
                  <Table.Td>
                    <Switch
                      checked={workflow.is_active}
                      onChange={(event) => void setActive(workflow, event.currentTarget.checked)}
                      aria-label={`${workflow.name} is active`}
                    />
                  </Table.Td>
                  <Table.Td fz="sm" visibleFrom="sm">
                    {formatDate(workflow.updated_at)}
                  </Table.Td>
                  <Table.Td>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${workflow.name}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          leftSection={<IconPlayerPlay size={16} />}
                          disabled={!workflow.is_active || workflow.step_count === 0}
                          onClick={() => setRunning(workflow)}
                        >
                          Run…
                        </Menu.Item>
                        <Menu.Item
                          leftSection={<IconDownload size={16} />}
                          onClick={() =>
                            void downloadWorkflow(workflow.id, workflow.name).catch((error: unknown) =>
                              notifications.show({ color: 'red', message: messageOf(error) }),
                            )
                          }
                        >
                          Export JSON
                        </Menu.Item>
                        {!workflow.is_system && (
                          <>
                            <Menu.Divider />
                            <Menu.Item
                              color="red"
                              leftSection={<IconTrash size={16} />}
                              onClick={() => setDeleting(workflow)}
                            >
                              Delete…
                            </Menu.Item>
                          </>
                        )}
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <NewWorkflowModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => navigate(`/automation/workflows/${id}`)}
      />
      <RunWorkflowModal workflowId={running?.id ?? null} onClose={() => setRunning(null)} />
      <ConfirmDelete
        opened={deleting !== null}
        onKeep={() => setDeleting(null)}
        onDelete={() => void remove()}
        title={`Delete “${deleting?.name ?? ''}”?`}
      >
        Its steps, its executions and the triggers that start it are deleted too. This cannot be undone.
      </ConfirmDelete>
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value}
      </Text>
    </Paper>
  );
}

/** Names a new workflow; its steps are added on the workflow's own page. */
function NewWorkflowModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const createWorkflow = useAction(workflowEndpoints.create);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createWorkflow.run({
        body: { name: name.trim(), description: description.trim() || null },
      });
      setName('');
      setDescription('');
      onCreated(created.id);
    } catch (failure) {
      setError(failure instanceof RequestError ? (failure.issueFor('name') ?? failure.message) : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="New workflow">
      <form onSubmit={(event) => void create(event)}>
        <Stack gap="sm">
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error}
            maxLength={200}
          />
          <Textarea
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              Create and add steps
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
