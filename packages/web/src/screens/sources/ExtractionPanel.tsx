import { Badge, Box, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { countOf, formatCount } from '../../lib/format.ts';
import { sentenceCase } from '../../lib/sentence-case.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ResponsiveTable } from '../../components/ResponsiveTable.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

const taskColors: Record<string, string> = {
  completed: 'teal',
  failed: 'red',
  running: 'blue',
  queued: 'gray',
  pending: 'gray',
  cancelled: 'gray',
};

/** The latest extraction: overall progress and each batch of passages with its counts and errors. */
export function ExtractionPanel({ source }: { source: SourceResponseBody }) {
  // Both reads are of the sources tag: a change of the source refreshes them.
  const params = { source_id: source.id };
  const progressRead = useEndpoint(extractionEndpoints.progress, { params });
  const started = progressRead.data?.has_extraction_job;
  const tasksRead = useEndpoint(extractionEndpoints.tasks, started ? { params, query: { page_size: 200 } } : null);
  const extraction = {
    error: progressRead.error ?? tasksRead.error,
    reload: () => Promise.all([progressRead.reload(), tasksRead.reload()]),
    data:
      progressRead.data && (!started || tasksRead.data)
        ? { progress: progressRead.data, tasks: tasksRead.data?.data ?? [] }
        : undefined,
  };

  const progress = extraction.data?.progress;
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
      {progress?.has_extraction_job && extraction.data && (
        <Stack gap="xs">
          <Group justify="space-between" gap="xs">
            <Text fz="sm">
              {formatCount(progress.completed_chunks)} of {countOf(progress.total_chunks ?? 0, 'batch', 'batches')} read
              · {countOf(progress.total_entities ?? 0, 'entity', 'entities')} ·{' '}
              {countOf(progress.total_relationships ?? 0, 'relationship')}
            </Text>
            <Badge variant="light" tt="none">
              {sentenceCase(progress.status)}
            </Badge>
          </Group>
          <Progress value={progress.progress_percent ?? 0} aria-label="Extraction progress" />
          {progress.error_message && (
            <Text c="red" fz="sm">
              {progress.error_message}
            </Text>
          )}
          {/* Focusable, so a keyboard can scroll a long list of batches. */}
          <Box mah={260} style={{ overflowY: 'auto' }} tabIndex={0} role="region" aria-label="Batch list">
            <ResponsiveTable
              label="Extraction batches"
              rows={extraction.data.tasks}
              rowKey={(task) => String(task.group_index)}
              verticalSpacing={3}
              fz="xs"
              stickyHeader
              columns={[
                { header: 'Batch', phone: 'title', cell: (task) => `Batch ${task.group_index + 1}` },
                {
                  header: 'Passages',
                  phone: 'detail',
                  cell: (task) =>
                    task.first_chunk_index === task.last_chunk_index
                      ? String(task.first_chunk_index + 1)
                      : `${task.first_chunk_index + 1}–${task.last_chunk_index + 1}`,
                },
                {
                  header: 'Status',
                  phone: 'aside',
                  cell: (task) => (
                    <Badge
                      size="xs"
                      variant="light"
                      tt="none"
                      miw="max-content"
                      color={taskColors[task.status] ?? 'gray'}
                    >
                      {sentenceCase(task.status)}
                      {task.attempts > 1 ? `, ${countOf(task.attempts, 'attempt')}` : ''}
                    </Badge>
                  ),
                },
                {
                  header: 'Found',
                  phone: 'detail',
                  cell: (task) =>
                    task.entity_count === null && task.relationship_count === null
                      ? '—'
                      : `${countOf(task.entity_count ?? 0, 'entity', 'entities')}, ${countOf(task.relationship_count ?? 0, 'relationship')}`,
                },
                {
                  header: 'Error',
                  phone: 'detail',
                  cell: (task) =>
                    task.error_message && (
                      <Text span fz="xs" c="red">
                        {task.error_message}
                      </Text>
                    ),
                },
              ]}
            />
          </Box>
        </Stack>
      )}
    </Card>
  );
}
