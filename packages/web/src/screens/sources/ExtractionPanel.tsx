import { Badge, Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api } from '../../lib/api.ts';
import { formatCount } from '../../lib/format.ts';
import { useLoad } from '../../lib/use-load.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

const taskColors: Record<string, string> = {
  completed: 'teal',
  failed: 'red',
  running: 'blue',
  queued: 'gray',
  pending: 'gray',
  cancelled: 'gray',
};

/** The latest extraction: overall progress and each group of chunks with its counts and errors. */
export function ExtractionPanel({ source }: { source: SourceResponseBody }) {
  // Reloaded whenever the source changes (its live updates arrive through the parent).
  const extraction = useLoad(async () => {
    const params = { source_id: source.id };
    const progress = await api.call(extractionEndpoints.progress, { params });
    const tasks = progress.has_extraction_job
      ? (await api.call(extractionEndpoints.tasks, { params, query: { page_size: 200 } })).data
      : [];
    return { progress, tasks };
  }, [source.id, source.updated_at]);

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md" mb="xs">
        Extraction
      </Title>
      {extraction.error && <ErrorNotice message={extraction.error} onRetry={() => void extraction.reload()} />}
      {extraction.data && !extraction.data.progress.has_extraction_job && (
        <Text fz="sm" c="dimmed">
          {source.extract_entities
            ? (extraction.data.progress.message ?? 'Extraction starts after indexing.')
            : 'This source was added without extraction; use Re-extract to run it.'}
        </Text>
      )}
      {extraction.data?.progress.has_extraction_job && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fz="sm">
              {formatCount(extraction.data.progress.completed_chunks)} of{' '}
              {formatCount(extraction.data.progress.total_chunks)} groups ·{' '}
              {formatCount(extraction.data.progress.total_entities)} entities ·{' '}
              {formatCount(extraction.data.progress.total_relationships)} relationships
            </Text>
            <Badge variant="light">{extraction.data.progress.status}</Badge>
          </Group>
          <Progress value={extraction.data.progress.progress_percent ?? 0} aria-label="Extraction progress" />
          {extraction.data.progress.error_message && (
            <Text c="red" fz="sm">
              {extraction.data.progress.error_message}
            </Text>
          )}
          <Table.ScrollContainer minWidth={360} mah={260}>
            <Table verticalSpacing={3} fz="xs" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Group</Table.Th>
                  <Table.Th>Chunks</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Found</Table.Th>
                  <Table.Th>Error</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {extraction.data.tasks.map((task) => (
                  <Table.Tr key={task.group_index}>
                    <Table.Td>{task.group_index + 1}</Table.Td>
                    <Table.Td>
                      {task.first_chunk_index + 1}–{task.last_chunk_index + 1}
                    </Table.Td>
                    <Table.Td>
                      <Badge size="xs" variant="light" color={taskColors[task.status] ?? 'gray'}>
                        {task.status}
                        {task.attempts > 1 ? ` ×${task.attempts}` : ''}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {task.entity_count ?? '—'} / {task.relationship_count ?? '—'}
                    </Table.Td>
                    <Table.Td c="red">{task.error_message ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </Card>
  );
}
