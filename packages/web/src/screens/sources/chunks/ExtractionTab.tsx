import { useState } from 'react';
import { Badge, Card, Pagination, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { useEndpoint } from '../../../lib/data/use-endpoint.ts';
import { countOf, formatCount, formatDate } from '../../../lib/format.ts';
import { BarChart } from './BarChart.tsx';
import { ChunkAttempts } from './ChunkAttempts.tsx';

const chunksPerPage = 20;
const statusColor: Record<string, string> = { completed: 'green', failed: 'red', running: 'blue', queued: 'gray' };

/** A source's extraction chunk by chunk: the groups sent to the model, each one's attempts, charts, the filtering log, recovery. */
export function ExtractionTab({ sourceId, running }: { sourceId: string; running: boolean }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const groups = useEndpoint(
    extractionEndpoints.tasks,
    { params: { source_id: sourceId }, query: { page, page_size: chunksPerPage } },
    { refreshMs: running ? 1500 : false },
  );
  if (groups.error)
    return (
      <Text c="dimmed" fz="sm">
        No extraction yet: chunks appear here once the source is extracted.
      </Text>
    );
  if (!groups.data) return <Skeleton h={300} />;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: open === null ? 1 : 2 }} spacing="md">
        <Card withBorder radius="md" p="sm">
          <Title order={2} fz="md" mb="xs">
            Chunks sent to the model ({formatCount(groups.data.total)})
          </Title>
          <Table.ScrollContainer minWidth={320}>
            <Table fz="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Chunk</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Found</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groups.data.data.map((group) => (
                  <Table.Tr key={group.group_index} aria-selected={open === group.group_index}>
                    <Table.Td>
                      <button
                        type="button"
                        className="mantine-focus-auto"
                        onClick={() => setOpen(group.group_index)}
                        aria-pressed={open === group.group_index}
                        style={{ all: 'unset', cursor: 'pointer', textDecoration: 'underline', whiteSpace: 'nowrap' }}
                      >
                        Chunk {group.group_index + 1}
                      </button>
                      {/* The passages under the chunk's name, not a column of their own: the table fits a phone. */}
                      <Text fz="xs" c="dimmed">
                        {group.last_chunk_index !== group.first_chunk_index
                          ? `passages #${group.first_chunk_index + 1}–${group.last_chunk_index + 1}`
                          : `passage #${group.first_chunk_index + 1}`}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {/* Its whole word, never an ellipsis: the narrow table wraps the other columns instead. */}
                      <Badge variant="light" color={statusColor[group.status] ?? 'gray'} tt="none" miw="max-content">
                        {group.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <div>{countOf(group.entity_count ?? 0, 'entity', 'entities')},</div>
                      <div>{countOf(group.relationship_count ?? 0, 'relationship')}</div>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {groups.data.pagination.total_pages > 1 && (
            <Pagination total={groups.data.pagination.total_pages} value={page} onChange={setPage} size="sm" mt="xs" />
          )}
        </Card>
        {open !== null && <ChunkAttempts sourceId={sourceId} chunkIndex={open} running={running} />}
      </SimpleGrid>
      <ModelUse sourceId={sourceId} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <FilteringLog sourceId={sourceId} />
        <RecoveryEvents sourceId={sourceId} />
      </SimpleGrid>
    </Stack>
  );
}

/** Tokens, time and context use per chunk, from each chunk's latest attempt. */
function ModelUse({ sourceId }: { sourceId: string }) {
  const charts = useEndpoint(extractionEndpoints.charts, { params: { source_id: sourceId } });
  const stats = useEndpoint(extractionEndpoints.stats, { params: { source_id: sourceId } });
  if (charts.error) return <ErrorNotice title="Could not load the charts" message={charts.error} />;
  if (!charts.data || charts.data.length === 0) return null;
  const points = charts.data;
  const window = stats.data?.context_window ?? 0;
  const bar = (value: (point: (typeof points)[number]) => number) =>
    points.map((point) => ({ label: `Chunk ${point.chunk_index + 1}`, value: value(point) }));
  return (
    <Card withBorder radius="md" p="sm">
      <Title order={2} fz="md" mb="xs">
        Model use per chunk
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <BarChart title="Tokens in" unit="tokens" bars={bar((point) => point.input_tokens)} />
        <BarChart title="Tokens out" unit="tokens" bars={bar((point) => point.output_tokens)} />
        <BarChart title="Time" unit="ms" bars={bar((point) => point.llm_duration_ms)} />
        <BarChart
          title={`Context used (of ${formatCount(window)} tokens)`}
          unit="%"
          bars={bar((point) => (window ? (point.input_tokens / window) * 100 : 0))}
        />
      </SimpleGrid>
      {stats.data && (
        <Text fz="sm" c="dimmed" mt="xs">
          {formatCount(stats.data.total_tasks)} chunks, {formatCount(stats.data.total_retries)} re-tries, on average{' '}
          {formatCount(stats.data.avg_total_tokens)} tokens and {formatCount(stats.data.avg_duration_ms)} ms a chunk
        </Text>
      )}
      {stats.data?.extraction_rules_template && (
        <details>
          <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-sm)' }}>
            Prompts of the {stats.data.domain} domain (read-only)
          </summary>
          <pre style={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>
            {`${stats.data.system_prompt}\n\n${stats.data.extraction_rules_template}\n\n${stats.data.relationship_instructions ?? ''}`}
          </pre>
        </details>
      )}
    </Card>
  );
}

function FilteringLog({ sourceId }: { sourceId: string }) {
  const log = useEndpoint(extractionEndpoints.filteringLog, { params: { source_id: sourceId } });
  if (!log.data) return null;
  const items = log.data.groups.flatMap((group) =>
    group.dropped.map((item, index) => ({ key: `${group.chunk_index}-${index}`, chunk: group.chunk_index, ...item })),
  );
  return (
    <Card withBorder radius="md" p="sm">
      <Title order={2} fz="md" mb="xs">
        Filtering log ({formatCount(items.length)} dropped)
      </Title>
      {items.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Nothing was dropped.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table fz="sm" verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Chunk</Table.Th>
                <Table.Th>Item</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.slice(0, 200).map((item) => (
                <Table.Tr key={item.key}>
                  <Table.Td>{item.chunk + 1}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.item}</Table.Td>
                  <Table.Td>{item.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function RecoveryEvents({ sourceId }: { sourceId: string }) {
  const events = useEndpoint(extractionEndpoints.recoveryEvents, {
    params: { source_id: sourceId },
    query: { page: 1, page_size: 20 },
  });
  if (!events.data) return null;
  return (
    <Card withBorder radius="md" p="sm">
      <Title order={2} fz="md" mb="xs">
        Recovery events
      </Title>
      {events.data.data.length === 0 ? (
        <Text fz="sm" c="dimmed">
          The recovery scan never had to step in.
        </Text>
      ) : (
        <Stack gap={4}>
          {events.data.data.map((event) => (
            <Text key={event.id} fz="sm">
              {formatDate(event.attempt_at)}: {event.action_taken.replace('_', ' ')} from {event.from_status} (
              {event.reason}, {event.enqueued_count} queued)
            </Text>
          ))}
        </Stack>
      )}
    </Card>
  );
}
