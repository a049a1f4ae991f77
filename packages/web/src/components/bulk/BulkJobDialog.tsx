import { useEffect } from 'react';
import { Button, Group, List, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import type { BatchResult } from '@rhizome/contracts/api/batch';
import { countOf } from '../../lib/format.ts';
import { OpsTaskProgress } from '../../screens/ops/OpsTaskProgress.tsx';
import { useTask } from '../../screens/ops/use-task.ts';
import type { BulkJob } from './use-bulk-job.ts';

/** The failures to list in full; the rest are counted. */
const shownFailures = 50;

/**
 * The progress of a bulk job, one bar per task, then per item what failed and why. It reopens after a
 * reload (the job is kept in the browser) and closes only when the person says so.
 */
export function BulkJobDialog({
  job,
  onClose,
  onSettled,
}: {
  job: BulkJob | null;
  onClose: () => void;
  /** Told each time one of the job's tasks ends, to load the changed list again. */
  onSettled: () => void;
}) {
  return (
    <Modal opened={job !== null} onClose={onClose} title={job?.title ?? ''} size="lg">
      {job && (
        <Stack gap="md" data-testid="bulk-job">
          {job.taskIds.map((taskId, index) => (
            <BatchTaskOutcome
              key={taskId}
              taskId={taskId}
              label={job.taskIds.length > 1 ? `Part ${index + 1} of ${job.taskIds.length}` : 'Progress'}
              onSettled={onSettled}
            />
          ))}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

interface BatchOperationData {
  operations?: { data?: { id?: unknown } }[];
}

function BatchTaskOutcome({ taskId, label, onSettled }: { taskId: string; label: string; onSettled: () => void }) {
  const state = useTask(taskId);
  const { done } = state;
  useEffect(() => {
    if (done) onSettled();
  }, [done]);
  const result = state.result as BatchResult | undefined;
  // A failed operation is known by its index; the task's own data says which item that was.
  const operations = (state.task?.data as BatchOperationData | undefined)?.operations ?? [];
  const failures = result?.results.filter((outcome) => !outcome.success) ?? [];
  const itemOf = (index: number) => {
    const id = operations[index]?.data?.id;
    return typeof id === 'string' ? id : `item ${index + 1}`;
  };
  return (
    <div>
      <OpsTaskProgress state={state} label={label} />
      {result && (
        <Text fz="sm" mt={4} data-testid="bulk-job-summary">
          {countOf(result.succeeded, 'item')} done, {countOf(result.failed, 'item')} failed
        </Text>
      )}
      {failures.length > 0 && (
        <ScrollArea.Autosize mah={220} mt={4}>
          <List size="sm" spacing={2} aria-label="Items that failed">
            {failures.slice(0, shownFailures).map((outcome) => (
              <List.Item key={outcome.index}>
                <Text span fz="sm" ff="monospace">
                  {itemOf(outcome.index)}
                </Text>
                : {outcome.error ?? 'failed'}
              </List.Item>
            ))}
          </List>
          {failures.length > shownFailures && (
            <Text fz="sm" c="dimmed">
              and {countOf(failures.length - shownFailures, 'more')}
            </Text>
          )}
        </ScrollArea.Autosize>
      )}
    </div>
  );
}
