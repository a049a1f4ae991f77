import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api } from '../../lib/api.ts';
import { useChanges } from '../../lib/ChangesProvider.tsx';
import { useExtractor } from '../../lib/extractor.ts';
import { countOf, formatBytes, formatCount, formatDate } from '../../lib/format.ts';
import { sentenceCase } from '../../lib/sentence-case.ts';
import { AgentExtractionOffer } from '../../components/AgentExtractionOffer.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Highlighted } from '../../components/Highlighted.tsx';
import { PassageViewer } from '../../components/PassageViewer.tsx';
import { ConfirmDomainModal } from './ConfirmDomainModal.tsx';
import { progressOf, statusColors } from './progress.ts';
import { SourceActions } from './SourceActions.tsx';
import { SourceEntities } from './SourceEntities.tsx';
import { ExtractionPanel } from './ExtractionPanel.tsx';
import { QualityPanel } from './QualityPanel.tsx';
import { SourceTags } from './SourceTags.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ExtractionTab } from './chunks/ExtractionTab.tsx';

const chunksPerPage = 20;

/** One source: what it is, how far it got, its passages and what was extracted from it. */
export default function SourceDetail() {
  const { sourceId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const extractor = useExtractor();
  const source = useEndpoint(sourceEndpoints.get, { params: { source_id: sourceId } });
  const [reviewing, setReviewing] = useState<SourceResponseBody | null>(null);
  const openChunk = search.get('chunk');
  const cited = search.getAll('highlight');
  const [tab, setTab] = useState<string | null>(openChunk ? 'passages' : 'overview');

  // The source itself reloads through the cache; a deleted one has nothing left to show.
  useChanges((event) => {
    if (event.type === 'source_deleted' && event.source_id === sourceId) navigate('/sources');
  });

  if (source.error)
    return (
      <ErrorNotice title="Could not open the source" message={source.error} onRetry={() => void source.reload()} />
    );
  if (!source.data) return <Skeleton h={400} />;
  const data = source.data;
  const progress = progressOf(data);
  const name = data.title ?? data.filename ?? data.origin_url ?? data.id;
  const reason = detectionReason(data);

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/sources" fz="sm">
        ← All sources
      </Anchor>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          <Group gap="xs" mt={6}>
            <Badge color={statusColors[data.status]} variant="light" tt="none">
              {data.paused ? 'Paused' : progress.label}
            </Badge>
            {data.extraction_domain && (
              <Badge variant="outline" color="gray" tt="none">
                Domain: {sentenceCase(data.extraction_domain)}
              </Badge>
            )}
            {!data.enabled && (
              <Badge color="gray" tt="none">
                Disabled
              </Badge>
            )}
          </Group>
          {reason && (
            <Text fz="xs" c="dimmed" mt={4}>
              {reason}
            </Text>
          )}
        </div>
        <Group gap="xs" wrap="nowrap">
          {data.source_type !== 'webpage' && (
            <Button
              component="a"
              href={api.url(sourceEndpoints.original, { params: { source_id: data.id } })}
              download
              variant="default"
              leftSection={<IconDownload size={16} />}
            >
              Original
            </Button>
          )}
          {data.status === 'awaiting_confirmation' && (
            <Button onClick={() => setReviewing(data)}>Review the domain</Button>
          )}
          <SourceActions source={data} onDeleted={() => navigate('/sources')} onReview={setReviewing} />
        </Group>
      </Group>
      <Card withBorder radius="md" p="sm">
        <Group justify="space-between" mb={4}>
          <Text fz="sm" fw={500}>
            {data.step_description ?? progress.label}
          </Text>
          <Text fz="sm" c="dimmed">
            {progress.value}%
          </Text>
        </Group>
        <Progress
          value={progress.value}
          color={progress.color}
          striped={progress.active}
          animated={progress.active}
          aria-label={`Progress: ${progress.label}`}
        />
        {data.error_message && (
          <Text c="red" fz="sm" mt={6} role="alert">
            {data.error_message}
          </Text>
        )}
        {data.loader_warnings.length > 0 && (
          <Alert color="yellow" p="xs" mt={6}>
            <Text fz="sm">{data.loader_warnings.join(' · ')}</Text>
          </Alert>
        )}
      </Card>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="passages">Passages ({data.chunk_count})</Tabs.Tab>
          <Tabs.Tab value="entities">Entities ({data.extraction_entities_count})</Tabs.Tab>
          <Tabs.Tab value="extraction">Extraction</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Card withBorder radius="md">
              <Title order={2} fz="md" mb="xs">
                Details
              </Title>
              <Table withRowBorders={false} verticalSpacing={3} fz="sm">
                <Table.Tbody>
                  {[
                    ['File', data.filename ?? '—'],
                    [
                      'Type',
                      `${(data.file_type ?? data.source_type).toUpperCase()} (${data.content_type ?? 'unknown'})`,
                    ],
                    ['Size', formatBytes(data.file_size)],
                    ['Added', formatDate(data.created_at)],
                    ['Indexed', formatDate(data.indexing_completed_at)],
                    ['In the graph', formatDate(data.commit_completed_at)],
                    [
                      'Passages',
                      `${formatCount(data.chunk_count)} (${formatCount(data.embedded_chunk_count)} searchable by meaning)`,
                    ],
                    ['Entities', formatCount(data.extraction_entities_count)],
                    ['Relationships', formatCount(data.extraction_relationships_count)],
                    extractor === 'builtin'
                      ? [
                          'Extractor',
                          `Built-in, pattern-based (no AI model): ${countOf(data.llm_total_calls, 'pass', 'passes')}`,
                        ]
                      : [
                          'AI model use',
                          `${countOf(data.llm_total_calls, 'call')}, ${countOf(data.llm_total_input_tokens + data.llm_total_output_tokens, 'token')}`,
                        ],
                  ].map(([label, value]) => (
                    <Table.Tr key={label}>
                      <Table.Th w={130}>{label}</Table.Th>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                    </Table.Tr>
                  ))}
                  {data.origin_url && (
                    <Table.Tr>
                      <Table.Th>URL</Table.Th>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Anchor href={data.origin_url} target="_blank" rel="noreferrer">
                          {data.origin_url}
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Table.Tbody>
              </Table>
              <SourceTags source={data} />
            </Card>
            <Stack gap="md">
              <ExtractionPanel source={data} />
              {extractor === 'builtin' && data.status === 'committed' && data.llm_total_calls > 0 && (
                <AgentExtractionOffer />
              )}
              <QualityPanel source={data} />
            </Stack>
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="passages" pt="md">
          <Passages
            sourceId={data.id}
            openChunk={openChunk}
            cited={cited}
            onOpen={(chunkId) => setSearch({ chunk: chunkId })}
          />
        </Tabs.Panel>
        <Tabs.Panel value="entities" pt="md">
          <SourceEntities sourceId={data.id} />
        </Tabs.Panel>
        <Tabs.Panel value="extraction" pt="md">
          <ExtractionTab sourceId={data.id} running={['extracting', 'extracted', 'committing'].includes(data.status)} />
        </Tabs.Panel>
      </Tabs>
      <ConfirmDomainModal
        source={reviewing}
        onClose={() => setReviewing(null)}
        onConfirmed={() => {
          setReviewing(null);
          void source.reload();
        }}
      />
    </Stack>
  );
}

/** The chunks in order; the open one is shown in full with its cited sentences marked. */
function Passages({
  sourceId,
  openChunk,
  cited,
  onOpen,
}: {
  sourceId: string;
  openChunk: string | null;
  cited: string[];
  onOpen: (chunkId: string) => void;
}) {
  const [page, setPage] = useState(1);
  const chunks = useEndpoint(sourceEndpoints.chunks, {
    params: { source_id: sourceId },
    query: { page, page_size: chunksPerPage },
  });
  if (chunks.error)
    return (
      <ErrorNotice title="Could not load the passages" message={chunks.error} onRetry={() => void chunks.reload()} />
    );
  if (!chunks.data) return <Skeleton h={300} />;
  if (chunks.data.data.length === 0)
    return (
      <Text c="dimmed" fz="sm">
        No passages yet: they appear once the source is indexed.
      </Text>
    );
  return (
    <SimpleGrid cols={{ base: 1, md: openChunk ? 2 : 1 }} spacing="md">
      <Stack gap={6}>
        {chunks.data.data.map((chunk) => (
          <Card
            key={chunk.id}
            withBorder
            radius="md"
            p="sm"
            component="button"
            type="button"
            onClick={() => onOpen(chunk.id)}
            style={{
              textAlign: 'left',
              cursor: 'pointer',
              borderColor: chunk.id === openChunk ? 'var(--mantine-primary-color-filled)' : undefined,
            }}
            aria-pressed={chunk.id === openChunk}
          >
            <Group gap="xs" mb={4}>
              <Text fz="xs" fw={600}>
                #{chunk.chunk_index + 1}
              </Text>
              {chunk.page_number !== null && (
                <Text fz="xs" c="dimmed">
                  page {chunk.page_number}
                </Text>
              )}
              {chunk.section && (
                <Text fz="xs" c="dimmed" truncate maw={300}>
                  {chunk.section}
                </Text>
              )}
            </Group>
            <Text fz="sm" lineClamp={3}>
              <Highlighted text={chunk.content} inline />
            </Text>
          </Card>
        ))}
        {chunks.data.pagination.total_pages > 1 && (
          <Pagination total={chunks.data.pagination.total_pages} value={page} onChange={setPage} size="sm" mt="xs" />
        )}
      </Stack>
      {openChunk && (
        <div style={{ position: 'sticky', top: 70, alignSelf: 'start' }}>
          <PassageViewer sourceId={sourceId} chunkId={openChunk} cited={cited} />
        </div>
      )}
    </SimpleGrid>
  );
}

/** Why detection fell back or was unsure, when the source uses the detected domain (a domain chosen by hand needs none). */
function detectionReason(source: SourceResponseBody): string | null {
  const proposal = source.detection_proposal as { detected_domain?: unknown; reason?: unknown } | null;
  if (source.forced_domain || typeof proposal?.reason !== 'string') return null;
  return proposal.detected_domain === source.extraction_domain ? proposal.reason : null;
}
