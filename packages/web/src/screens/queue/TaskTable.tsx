import { Badge, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { messageOf } from '../../lib/api.ts';
import { formatDate, humanise } from '../../lib/format.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { ResponsiveTable } from '../../components/ResponsiveTable.tsx';

export type Task = ResponseOf<typeof queueEndpoints.list>['data'][number];

const statusColors: Record<Task['status'], string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'yellow',
};

/** A page of tasks with cancel (queued or running) and retry (failed) on each. */
export function TaskTable({ tasks, onOpen }: { tasks: Task[]; onOpen: (taskId: string) => void }) {
  const cancel = useAction(queueEndpoints.cancel);
  const retry = useAction(queueEndpoints.retry);
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      notifications.show({ color: 'teal', message: done });
    } catch (error) {
      notifications.show({ color: 'red', message: messageOf(error) });
    }
  };
  return (
    <ResponsiveTable<Task>
      label="Tasks"
      rows={tasks}
      rowKey={(task) => task.task_id}
      highlightOnHover
      verticalSpacing={6}
      columns={[
        {
          header: 'Operation',
          phone: 'title',
          cell: (task) => (
            <Button
              variant="subtle"
              size="compact-sm"
              px={4}
              onClick={() => onOpen(task.task_id)}
              title={task.operation}
            >
              {task.operation}
            </Button>
          ),
        },
        {
          header: 'Status',
          phone: 'aside',
          width: 110,
          cell: (task) => (
            <Badge color={statusColors[task.status]} variant="light" tt="none">
              {humanise(task.status)}
            </Badge>
          ),
        },
        { header: 'Lane', phone: 'detail', width: 100, cell: (task) => task.queue },
        { header: 'Priority', phone: 'detail', width: 80, cell: (task) => task.priority },
        { header: 'Attempts', phone: 'detail', width: 80, cell: (task) => task.attempts },
        { header: 'Created', phone: 'detail', width: 190, cell: (task) => formatDate(task.created_at) },
        {
          header: 'Finished',
          phone: 'hidden',
          width: 190,
          cell: (task) => (
            <Text fz="sm" span>
              {task.completed_at ? formatDate(task.completed_at) : task.started_at ? 'Running' : '—'}
            </Text>
          ),
        },
        {
          header: 'Actions',
          hideHeader: true,
          phone: 'detail',
          width: 100,
          cell: (task) => (
            <Group gap={4} wrap="nowrap">
              {(task.status === 'queued' || task.status === 'running') && (
                <Button
                  size="compact-xs"
                  variant="default"
                  aria-label={`Cancel ${task.operation}`}
                  onClick={() =>
                    void act(() => cancel.run({ params: { task_id: task.task_id } }), `${task.operation} cancelled.`)
                  }
                >
                  Cancel
                </Button>
              )}
              {task.status === 'failed' && (
                <Button
                  size="compact-xs"
                  variant="default"
                  aria-label={`Retry ${task.operation}`}
                  onClick={() =>
                    void act(() => retry.run({ params: { task_id: task.task_id } }), `${task.operation} queued again.`)
                  }
                >
                  Retry
                </Button>
              )}
            </Group>
          ),
        },
      ]}
    />
  );
}
