import { Alert, Code, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { formatDate } from '../../lib/format.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

/** One task: its times and attempts, its payload and metadata, and the error it failed with. */
export function TaskDetailModal({ taskId, onClose }: { taskId: string | null; onClose: () => void }) {
  return (
    <Modal opened={taskId !== null} onClose={onClose} title="Task" size="lg">
      {taskId && <TaskDetail taskId={taskId} />}
    </Modal>
  );
}

function TaskDetail({ taskId }: { taskId: string }) {
  const task = useEndpoint(queueEndpoints.get, { params: { task_id: taskId } }, { keepPrevious: false });
  if (task.error)
    return <ErrorNotice title="Could not open the task" message={task.error} onRetry={() => void task.reload()} />;
  if (!task.data) return <Skeleton h={200} />;
  const detail = task.data;
  const facts: [string, string][] = [
    ['Operation', detail.operation],
    ['Lane', detail.queue],
    ['Status', detail.status],
    ['Priority', String(detail.priority)],
    ['Attempts', String(detail.attempts)],
    ['Created', formatDate(detail.created_at)],
    ['Started', formatDate(detail.started_at)],
    ['Finished', formatDate(detail.completed_at)],
    ['Id', detail.task_id],
  ];
  return (
    <Stack gap="sm" data-testid="task-detail">
      <Table withRowBorders={false} verticalSpacing={2} fz="sm">
        <Table.Tbody>
          {facts.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={110}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {detail.error && (
        <Alert color="red" title={detail.error_type ?? 'Error'}>
          {detail.error}
        </Alert>
      )}
      <div>
        <Text fz="sm" fw={600} mb={4}>
          Payload
        </Text>
        <Code block aria-label="The task's payload" tabIndex={0} style={{ maxHeight: 300, overflow: 'auto' }}>
          {JSON.stringify(detail.data, null, 2)}
        </Code>
      </div>
      {Object.keys(detail.metadata).length > 0 && (
        <div>
          <Text fz="sm" fw={600} mb={4}>
            Metadata
          </Text>
          <Code block aria-label="The task's metadata" tabIndex={0}>
            {JSON.stringify(detail.metadata, null, 2)}
          </Code>
        </div>
      )}
    </Stack>
  );
}
