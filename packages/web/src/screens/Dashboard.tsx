import { Anchor, Badge, Button, Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { processingEndpoints, queueEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { messageOf } from '../lib/api.ts';
import { useAction } from '../lib/data/use-action.ts';
import { useEndpoint } from '../lib/data/use-endpoint.ts';
import { countOf, formatCount, formatDate, humanise } from '../lib/format.ts';
import { extractorName, useExtractor, type Extractor } from '../lib/extractor.ts';
import { qualityColorOf } from '../lib/quality.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { QualityGrade } from '../components/QualityGrade.tsx';
import { ResponsiveTable } from '../components/ResponsiveTable.tsx';
import { progressOf, statusColors } from './sources/progress.ts';

/** The sources list, showing only those that wait for their domain to be confirmed. */
const awaitingLink = '/sources?status=awaiting_confirmation';

/** What each background queue does, in the words of someone adding documents. */
function laneName(queue: string, extractor: Extractor | undefined): string {
  if (queue === 'operations') return 'Reading and indexing documents';
  if (queue === 'llm') return ['Extracting', extractorName(extractor)].filter(Boolean).join(' with ');
  return humanise(queue);
}

type DashboardQuality = ResponseOf<typeof opsEndpoints.dashboard>['quality'];

/** The mean grade of the graded sources, with the API's label for it. */
function QualitySummary({ quality }: { quality: DashboardQuality }) {
  if (quality.scored_sources === 0 || quality.quality_label === null)
    return (
      <Text fz="sm" c="dimmed">
        No source is graded yet: add sources and let extraction finish.
      </Text>
    );
  return (
    <>
      <QualityGrade grade={quality.avg_quality_grade} label={quality.quality_label} suffix="average" />
      <Progress
        value={quality.avg_quality_grade}
        color={qualityColorOf(quality.quality_label)}
        mt="xs"
        aria-label="Average quality grade"
      />
      <Text fz="xs" c="dimmed" mt={6}>
        Average over {countOf(quality.scored_sources, 'graded source')}.
      </Text>
    </>
  );
}

/** What the graph holds, what is being processed, and how good the extractions are. */
export default function Dashboard() {
  const extractor = useExtractor();
  const dashboard = useEndpoint(opsEndpoints.dashboard);
  const lanes = useEndpoint(queueEndpoints.stats);
  const recent = useEndpoint(sourceEndpoints.list, { query: { page_size: 6 } });
  const processing = useEndpoint(processingEndpoints.status);
  const pause = useAction(processingEndpoints.pause);
  const resume = useAction(processingEndpoints.resume);
  const loads = [dashboard, lanes, recent, processing];
  const board = {
    error: loads.find((load) => load.error)?.error ?? null,
    reload: () => Promise.all(loads.map((load) => load.reload())),
    data:
      dashboard.data && lanes.data && recent.data && processing.data
        ? { dashboard: dashboard.data, lanes: lanes.data, recent: recent.data.data, processing: processing.data }
        : undefined,
  };

  const toggleProcessing = async () => {
    try {
      if (board.data?.processing.paused) await resume.run();
      else await pause.run({ body: { reason: 'Paused from the dashboard' } });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change processing', message: messageOf(error) });
    }
  };

  if (board.error)
    return (
      <ErrorNotice title="Could not load the dashboard" message={board.error} onRetry={() => void board.reload()} />
    );
  const data = board.data;
  const counts = data?.dashboard.counts ?? {};
  const tiles = [
    ['Sources', counts.sources, '/sources'],
    ['Entities', counts.knowledge_nodes, null],
    ['Relationships', counts.links, null],
    ['Awaiting confirmation', counts.awaiting_confirmation, awaitingLink],
  ] as const;
  const awaiting = counts.awaiting_confirmation ?? 0;
  return (
    <Stack gap="md">
      <PageHeader title="Dashboard" description="Your knowledge graph at a glance.">
        {data && (
          <Button
            variant={data.processing.paused ? 'filled' : 'default'}
            leftSection={data.processing.paused ? <IconPlayerPlay size={16} /> : <IconPlayerPause size={16} />}
            onClick={() => void toggleProcessing()}
          >
            {data.processing.paused ? 'Resume processing' : 'Pause processing'}
          </Button>
        )}
      </PageHeader>
      {data?.processing.paused && (
        <Badge color="yellow" size="lg" variant="light" tt="none">
          Processing is paused{data.processing.reason ? `: ${data.processing.reason}` : ''}
        </Badge>
      )}
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        {tiles.map(([label, value, link]) => (
          <Card key={label} withBorder radius="md" p="md" mih={96}>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              {label}
            </Text>
            {data ? (
              <Text fz={28} fw={700} mt={4}>
                {link && value ? (
                  <Anchor component={Link} to={link} inherit>
                    {formatCount(value)}
                  </Anchor>
                ) : (
                  formatCount(value ?? 0)
                )}
              </Text>
            ) : (
              <Skeleton h={32} mt={6} />
            )}
          </Card>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            Background work
          </Title>
          {!data ? (
            <Skeleton h={80} />
          ) : data.lanes.queues.length === 0 ? (
            <Text fz="sm" c="dimmed">
              {data.lanes.note}
            </Text>
          ) : (
            <Stack gap="sm">
              {awaiting > 0 ? (
                <Text fz="sm" data-testid="awaiting-confirmation">
                  {countOf(awaiting, 'source')} {awaiting === 1 ? 'waits' : 'wait'} for you to confirm the domain before
                  extraction.{' '}
                  <Anchor component={Link} to={awaitingLink} inherit underline="always">
                    Review {awaiting === 1 ? 'it' : 'them'}
                  </Anchor>
                </Text>
              ) : (
                data.lanes.queues.every((lane) => lane.running + lane.queued === 0) && (
                  <Text fz="sm" c="dimmed">
                    Nothing to do: new documents are picked up as soon as they arrive.
                  </Text>
                )
              )}
              {data.lanes.queues.map((lane) => (
                <Group key={lane.queue} justify="space-between" gap="xs">
                  <Text fz="sm" fw={500}>
                    {laneName(lane.queue, extractor)}
                  </Text>
                  <Group gap="xs">
                    <Badge variant="light" color="blue" tt="none">
                      {lane.running} in progress
                    </Badge>
                    <Badge variant="light" color="gray" tt="none">
                      {lane.queued} waiting
                    </Badge>
                  </Group>
                </Group>
              ))}
            </Stack>
          )}
        </Card>
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            Extraction quality
          </Title>
          {!data ? <Skeleton h={80} /> : <QualitySummary quality={data.dashboard.quality} />}
        </Card>
      </SimpleGrid>
      <Card withBorder radius="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="md">
            Recent sources
          </Title>
          <Anchor component={Link} to="/sources" fz="sm">
            All sources
          </Anchor>
        </Group>
        {!data ? (
          <Skeleton h={160} />
        ) : data.recent.length === 0 ? (
          <Stack align="flex-start" gap="xs">
            <Text fz="sm" c="dimmed">
              Nothing here yet. Add documents to build your graph.
            </Text>
            <Button component={Link} to="/sources">
              Add sources
            </Button>
          </Stack>
        ) : (
          <ResponsiveTable
            label="Recent sources"
            rows={data.recent}
            rowKey={(source) => source.id}
            verticalSpacing={6}
            fz="sm"
            columns={[
              {
                header: 'Source',
                phone: 'title',
                cell: (source) => (
                  <Anchor component={Link} to={`/sources/${source.id}`} fz="sm" lineClamp={1}>
                    {source.title ?? source.filename ?? source.origin_url ?? source.id}
                  </Anchor>
                ),
              },
              {
                header: 'Progress',
                phone: 'hidden',
                width: 200,
                cell: (source) => {
                  const progress = progressOf(source);
                  return (
                    <Progress value={progress.value} color={progress.color} size="sm" aria-label={progress.label} />
                  );
                },
              },
              {
                header: 'Status',
                phone: 'aside',
                width: 190,
                cell: (source) => (
                  <Badge size="sm" variant="light" color={statusColors[source.status]} tt="none">
                    {source.paused ? 'Paused' : progressOf(source).label}
                  </Badge>
                ),
              },
              {
                header: 'Added',
                phone: 'detail',
                width: 170,
                cell: (source) => (
                  <Text span fz="xs" c="dimmed">
                    {formatDate(source.created_at)}
                  </Text>
                ),
              },
            ]}
          />
        )}
      </Card>
    </Stack>
  );
}
