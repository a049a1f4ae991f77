import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  Select,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBolt, IconDots, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { triggerEndpoints } from '@rhizome/contracts/api/triggers';
import { api, messageOf } from '../../lib/api.ts';
import { runWithNotice } from '../../lib/notify-action.ts';
import { countOf } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { eventLabel, formatRate, type Trigger, type TriggerSummary } from './automation-data.ts';
import { FireTriggerModal } from './FireTriggerModal.tsx';
import { TriggerModal } from './TriggerModal.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { useAction } from '../../lib/data/use-action.ts';

/** The triggers, lower priority first: what event starts which workflow, how often it ran and how it went. */
export function TriggersTab() {
  const [searchParams, setSearchParams] = useSearchParams();
  const workflowId = searchParams.get('workflow');
  const triggers = useEndpointPages(triggerEndpoints.list);
  const workflows = useEndpointPages(workflowEndpoints.list);
  const update = useAction(triggerEndpoints.update);
  const deleteTrigger = useAction(triggerEndpoints.remove);
  const names = useMemo(
    () => new Map((workflows.data ?? []).map((workflow) => [workflow.id, workflow.name])),
    [workflows.data],
  );
  const [editing, setEditing] = useState<Trigger | 'new' | null>(null);
  const [firing, setFiring] = useState<TriggerSummary | null>(null);
  const [deleting, setDeleting] = useState<TriggerSummary | null>(null);

  async function edit(trigger: TriggerSummary) {
    try {
      setEditing(await api.call(triggerEndpoints.get, { params: { trigger_id: trigger.id } }));
    } catch (error) {
      notifications.show({ color: 'red', message: messageOf(error) });
    }
  }
  async function setEnabled(trigger: TriggerSummary, enabled: boolean) {
    await runWithNotice(
      async () => {
        await update.run({ params: { trigger_id: trigger.id }, body: { enabled } });
      },
      { failure: `Could not change “${trigger.name}”` },
    );
  }
  async function remove() {
    if (!deleting) return;
    const { id, name } = deleting;
    setDeleting(null);
    await runWithNotice(
      async () => {
        await deleteTrigger.run({ params: { trigger_id: id } });
      },
      { success: `The trigger “${name}” is deleted.`, failure: `Could not delete “${name}”` },
    );
  }

  const list = (triggers.data ?? []).filter((trigger) => !workflowId || trigger.workflow_id === workflowId);
  return (
    <Stack gap="md">
      <Group gap="xs" align="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} disabled={!workflows.data}>
          New trigger
        </Button>
        <Select
          aria-label="Workflow"
          placeholder="Every workflow"
          clearable
          searchable
          w={{ base: '100%', sm: 260 }}
          value={workflowId}
          data={(workflows.data ?? []).map((workflow) => ({ value: workflow.id, label: workflow.name }))}
          onChange={(value) => setSearchParams(value ? { workflow: value } : {}, { replace: true })}
        />
      </Group>
      {triggers.error && (
        <ErrorNotice
          title="Could not load the triggers"
          message={triggers.error}
          onRetry={() => void triggers.reload()}
        />
      )}
      {!triggers.data && !triggers.error && <Skeleton h={200} radius="md" />}
      {triggers.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconBolt size={40} stroke={1.3} color="var(--mantine-color-dimmed)" />
          <Text fw={600} mt="xs">
            No triggers{workflowId ? ' start this workflow' : ' yet'}
          </Text>
          <Text fz="sm" c="dimmed">
            A trigger starts a workflow when a node or edge is created, or when it is fired.
          </Text>
        </Paper>
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={340}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Triggers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Trigger</Table.Th>
                <Table.Th visibleFrom="sm">Starts</Table.Th>
                <Table.Th w={80} visibleFrom="sm">
                  Priority
                </Table.Th>
                <Table.Th w={{ base: 96, sm: 170 }}>Runs</Table.Th>
                <Table.Th w={{ base: 72, sm: 90 }}>Enabled</Table.Th>
                <Table.Th w={48}>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((trigger) => (
                <Table.Tr key={trigger.id} data-trigger-id={trigger.id}>
                  <Table.Td>
                    <Text fz="sm" fw={600}>
                      {trigger.name}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {eventLabel(trigger.event_source)}
                      <Text span hiddenFrom="sm" fz="xs">
                        {' '}
                        · priority {trigger.priority} · starts {names.get(trigger.workflow_id) ?? trigger.workflow_id}
                      </Text>
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Link to={`/automation/workflows/${trigger.workflow_id}`} className="source-link">
                      {names.get(trigger.workflow_id) ?? trigger.workflow_id}
                    </Link>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{trigger.priority}</Table.Td>
                  <Table.Td>
                    <TriggerStats id={trigger.id} />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={trigger.enabled}
                      onChange={(event) => void setEnabled(trigger, event.currentTarget.checked)}
                      aria-label={`${trigger.name} is enabled`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${trigger.name}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          leftSection={<IconBolt size={16} />}
                          disabled={!trigger.enabled}
                          onClick={() => setFiring(trigger)}
                        >
                          Fire now…
                        </Menu.Item>
                        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => void edit(trigger)}>
                          Edit…
                        </Menu.Item>
                        <Menu.Divider />
                        <Menu.Item
                          color="red"
                          leftSection={<IconTrash size={16} />}
                          onClick={() => setDeleting(trigger)}
                        >
                          Delete…
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <TriggerModal
        opened={editing !== null}
        trigger={editing === 'new' ? null : editing}
        workflows={workflows.data ?? []}
        defaultWorkflowId={workflowId}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void triggers.reload();
        }}
      />
      <FireTriggerModal trigger={firing} onClose={() => setFiring(null)} />
      <ConfirmDelete
        opened={deleting !== null}
        onKeep={() => setDeleting(null)}
        onDelete={() => void remove()}
        title={`Delete the trigger “${deleting?.name ?? ''}”?`}
      >
        The workflow stays; it is no longer started by this event. A built-in trigger is switched off instead.
      </ConfirmDelete>
    </Stack>
  );
}

/** How many runs a trigger started and how many succeeded. */
function TriggerStats({ id }: { id: string }) {
  const stats = useEndpoint(triggerEndpoints.stats, { params: { trigger_id: id } });
  if (stats.error)
    return (
      <Text fz="xs" c="dimmed">
        —
      </Text>
    );
  if (!stats.data) return <Skeleton h={14} w={90} />;
  const { total_executions: total, successful_executions: ok, failed_executions: failed } = stats.data;
  if (total === 0)
    return (
      <Text fz="sm" c="dimmed">
        Not run yet
      </Text>
    );
  return (
    <Group gap={4}>
      <Text fz="sm">{countOf(total, 'run')}</Text>
      <Badge size="sm" variant="light" color={failed ? 'orange' : 'teal'} title={`${ok} succeeded, ${failed} failed`}>
        {formatRate(stats.data.success_rate)} ok
      </Badge>
    </Group>
  );
}
