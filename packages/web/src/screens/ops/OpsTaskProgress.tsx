import { Group, Progress, Text } from '@mantine/core';
import type { TaskState } from './use-task.ts';

const labels: Record<string, string> = {
  queued: 'Waiting in the queue',
  running: 'Working',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Where a queued task stands: a moving bar while it waits or runs, then its outcome. */
export function OpsTaskProgress({ state, label }: { state: TaskState; label: string }) {
  const status = state.task?.status ?? 'queued';
  const failed = Boolean(state.error) || status === 'failed' || status === 'cancelled';
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text fz="sm" fw={500}>
          {label}
        </Text>
        <Text fz="sm" c={failed ? 'red' : 'dimmed'} aria-live="polite">
          {state.error ?? labels[status] ?? status}
        </Text>
      </Group>
      <Progress
        value={state.done ? 100 : status === 'running' ? 60 : 15}
        color={failed ? 'red' : state.done ? 'teal' : 'blue'}
        animated={!state.done}
        striped={!state.done}
        aria-label={label}
      />
    </div>
  );
}
