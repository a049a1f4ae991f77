import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { processingEndpoints, queueEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../lib/api.ts';
import { useChanges } from '../lib/changes.tsx';
import { formatCount, formatDate } from '../lib/format.ts';
import { qualityLabelColors } from '../lib/quality.ts';
import { useLoad } from '../lib/use-load.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { progressOf, statusColors } from './sources/progress.ts';

const laneNames: Record<string, string> = { llm: 'Model lane', operations: 'Operations lane' };

/** What the graph holds, what is being processed, and how good the extractions are. */
export default function Dashboard() {
  const board = useLoad(async () => {
    const [dashboard, lanes, recent, processing] = await Promise.all([
      api.call(opsEndpoints.dashboard),
      api.call(queueEndpoints.stats),
      api.call(sourceEndpoints.list, { query: { page_size: 6 } }),
      api.call(processingEndpoints.status),
    ]);
    return { dashboard, lanes, recent: recent.data, processing };
  }, []);

  useChanges(
    (event) => {
      if (event.type === 'lanes')
        board.set(
          (current) =>
            current && {
              ...current,
              lanes: {
                ...current.lanes,
                queues: current.lanes.queues.map((lane) => ({
                  ...lane,
                  ...event.queues.find((live) => live.queue === lane.queue),
                })),
              },
            },
        );
      if (event.type === 'source')
        board.set(
          (current) =>
            current && {
              ...current,
              recent: current.recent.some((source) => source.id === event.source.id)
                ? current.recent.map((source) => (source.id === event.source.id ? event.source : source))
                : [event.source, ...current.recent].slice(0, 6),
            },
        );
    },
    () => void board.reload(),
    10_000,
  );

  const toggleProcessing = async () => {
    try {
      if (board.data?.processing.paused) await api.call(processingEndpoints.resume);
      else await api.call(processingEndpoints.pause, { body: { reason: 'Paused from the dashboard' } });
      await board.reload();
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
    ['Awaiting confirmation', counts.awaiting_confirmation, '/sources'],
  ] as const;
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
        <Badge color="yellow" size="lg" variant="light">
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
            Queue
          </Title>
          {!data ? (
            <Skeleton h={80} />
          ) : data.lanes.queues.length === 0 ? (
            <Text fz="sm" c="dimmed">
              {data.lanes.note}
            </Text>
          ) : (
            <Stack gap="sm">
              {data.lanes.queues.map((lane) => (
                <Group key={lane.queue} justify="space-between">
                  <Text fz="sm" fw={500}>
                    {laneNames[lane.queue] ?? lane.queue}
                  </Text>
                  <Group gap="xs">
                    <Badge variant="light" color="blue">
                      {lane.running} running
                    </Badge>
                    <Badge variant="light" color="gray">
                      {lane.queued} queued
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
          {!data ? (
            <Skeleton h={80} />
          ) : data.dashboard.quality.scored_sources === 0 ? (
            <Text fz="sm" c="dimmed">
              No committed source is graded yet: add sources and let extraction finish.
            </Text>
          ) : (
            <>
              <Group gap="xs" align="baseline">
                <Text fz={28} fw={700}>
                  {Math.round(data.dashboard.quality.avg_quality_grade)}
                </Text>
                <Text c="dimmed" fz="sm">
                  / 100 average
                </Text>
                {data.dashboard.quality.quality_label && (
                  <Badge variant="light" color={qualityLabelColors[data.dashboard.quality.quality_label] ?? 'gray'}>
                    {data.dashboard.quality.quality_label}
                  </Badge>
                )}
              </Group>
              <Progress value={data.dashboard.quality.avg_quality_grade} mt="xs" aria-label="Average quality grade" />
              <Text fz="xs" c="dimmed" mt={6}>
                Over {data.dashboard.quality.scored_sources} graded sources.
              </Text>
            </>
          )}
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
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing={6} fz="sm">
              <Table.Tbody>
                {data.recent.map((source) => {
                  const progress = progressOf(source);
                  return (
                    <Table.Tr key={source.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/sources/${source.id}`} fz="sm" lineClamp={1}>
                          {source.title ?? source.filename ?? source.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td w={200}>
                        <Progress value={progress.value} color={progress.color} size="sm" aria-label={progress.label} />
                      </Table.Td>
                      <Table.Td w={170}>
                        <Badge size="sm" variant="light" color={statusColors[source.status]}>
                          {progress.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td w={160} c="dimmed" fz="xs">
                        {formatDate(source.created_at)}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
