import { useState } from 'react';
import { Button, Group, Pagination, SegmentedControl, Select, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useUrlFilter } from '../entities/use-url-filter.ts';
import { QueueCounts } from './QueueCounts.tsx';
import { TaskDetailModal } from './TaskDetailModal.tsx';
import { TaskTable } from './TaskTable.tsx';

const pageSize = 50;
const filterKeys = ['lane', 'status'] as const;
const statuses = ['queued', 'running', 'completed', 'failed', 'cancelled'];
type Lane = 'operations' | 'llm';

/** Background work: counts per lane, the tasks newest first (live from the change stream), and steering them. */
export default function QueueScreen() {
  const [filter, setFilter] = useUrlFilter(filterKeys);
  const lane: Lane | undefined = filter.lane === 'operations' || filter.lane === 'llm' ? filter.lane : undefined;
  const tasks = useEndpoint(queueEndpoints.list, { query: { page: filter.page, page_size: pageSize, queues: lane } });
  const [opened, setOpened] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'cancel' | 'clear' | null>(null);
  const cancelAll = useAction(queueEndpoints.cancelAll);
  const clearHistory = useAction(queueEndpoints.clearHistory);

  const steer = async (what: () => Promise<string>) => {
    try {
      notifications.show({ color: 'teal', message: await what() });
    } catch (error) {
      notifications.show({ color: 'red', message: messageOf(error) });
    }
    setConfirming(null);
  };
  const shown = (tasks.data?.data ?? []).filter((task) => !filter.status || task.status === filter.status);
  const total = tasks.data?.pagination.total ?? 0;
  const pages = tasks.data?.pagination.total_pages ?? 1;
  return (
    <Stack gap="md">
      <PageHeader title="Queue" description="The background work: extraction, indexing, imports and workflows.">
        <Button variant="default" onClick={() => setConfirming('cancel')}>
          Cancel all active
        </Button>
        <Button variant="default" onClick={() => setConfirming('clear')}>
          Clear finished
        </Button>
      </PageHeader>
      <QueueCounts />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Lane"
          value={lane ?? 'all'}
          onChange={(value) => setFilter({ lane: value === 'all' ? null : value })}
          data={[
            { value: 'all', label: 'Every lane' },
            { value: 'operations', label: 'Operations' },
            { value: 'llm', label: 'Language model' },
          ]}
        />
        <Select
          label="Status on this page"
          placeholder="Any status"
          data={statuses}
          value={filter.status || null}
          onChange={(status) => setFilter({ status, page: filter.page })}
          clearable
          w={{ base: '100%', sm: 200 }}
        />
      </Group>
      {tasks.error ? (
        <ErrorNotice title="Could not list the tasks" message={tasks.error} onRetry={() => void tasks.reload()} />
      ) : !tasks.data ? (
        <Skeleton h={300} />
      ) : shown.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {total === 0 ? 'No tasks: nothing is waiting or has run lately.' : 'No task on this page has that status.'}
        </Text>
      ) : (
        <TaskTable tasks={shown} onOpen={setOpened} />
      )}
      <Group justify="space-between">
        <Text fz="sm" c="dimmed" aria-live="polite">
          {countOf(total, 'task')}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={filter.page}
            onChange={(page) => setFilter({ page, status: filter.status || null })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        )}
      </Group>
      <TaskDetailModal taskId={opened} onClose={() => setOpened(null)} />
      <ConfirmDelete
        opened={confirming === 'cancel'}
        title={lane ? `Cancel every active task of the ${lane} lane?` : 'Cancel every active task?'}
        keepLabel="Keep them"
        deleteLabel="Cancel them"
        busy={cancelAll.pending}
        onKeep={() => setConfirming(null)}
        onDelete={() =>
          void steer(async () => {
            const { cancelled } = await cancelAll.run({ query: { queue: lane } });
            return `${countOf(cancelled, 'task')} cancelled.`;
          })
        }
      >
        Queued tasks will not start and running ones stop at their next check.
      </ConfirmDelete>
      <ConfirmDelete
        opened={confirming === 'clear'}
        title="Clear finished tasks?"
        deleteLabel="Clear them"
        busy={clearHistory.pending}
        onKeep={() => setConfirming(null)}
        onDelete={() =>
          void steer(async () => {
            const { cleared } = await clearHistory.run({ query: { queue: lane } });
            return `${countOf(cleared, 'finished task')} cleared.`;
          })
        }
      >
        Completed, failed and cancelled tasks leave the list; their results go with them.
      </ConfirmDelete>
    </Stack>
  );
}
