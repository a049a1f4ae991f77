import { Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

const laneNames: Record<string, string> = { operations: 'Operations lane', llm: 'Language-model lane' };

/** Per lane: queued, running, recently completed and failed, and its workers (live from lane events). */
export function QueueCounts() {
  const stats = useEndpoint(queueEndpoints.stats);
  if (stats.error)
    return <ErrorNotice title="Could not read the queue" message={stats.error} onRetry={() => void stats.reload()} />;
  if (!stats.data) return <Skeleton h={90} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {stats.data.queues.map((lane) => (
        <Paper key={lane.queue} withBorder radius="md" p="sm" data-testid={`lane-${lane.queue}`}>
          <Title order={2} fz="sm" mb={6}>
            {laneNames[lane.queue] ?? lane.queue}
          </Title>
          <SimpleGrid cols={{ base: 3, xs: 5 }} spacing={4}>
            {(
              [
                ['Queued', lane.queued],
                ['Running', lane.running],
                ['Completed', lane.completed_recent],
                ['Failed', lane.failed_recent],
                ['Workers', lane.workers],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <Text fz="lg" fw={600} c={label === 'Failed' && value > 0 ? 'red' : undefined}>
                  {value.toLocaleString()}
                </Text>
                <Text fz="xs" c="dimmed">
                  {label}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
