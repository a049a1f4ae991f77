import { Group, Skeleton, Text } from '@mantine/core';
import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { countOf, formatDate } from '../../lib/format.ts';
import { useEndpointIfFound } from '../../lib/data/use-endpoint.ts';

/** A tool's call statistics; the API answers 404 for a tool never called. */
export function ToolStats({ type, id }: { type: 'system' | 'user'; id: string }) {
  const stats = useEndpointIfFound(toolEndpoints.stats, { params: { tool_type: type, tool_id: id } });
  if (stats.error)
    return (
      <Text fz="sm" c="red">
        {stats.error}
      </Text>
    );
  if (stats.data === undefined) return <Skeleton h={16} w={220} />;
  if (stats.data === null)
    return (
      <Text fz="sm" c="dimmed">
        Never called yet.
      </Text>
    );
  const {
    total_calls: total,
    successful_calls: ok,
    failed_calls: failed,
    avg_execution_ms: average,
    last_called_at: last,
  } = stats.data;
  return (
    <Group gap="md">
      <Text fz="sm" fw={600}>
        {countOf(total, 'call')}
      </Text>
      <Text fz="sm">
        <b>{ok.toLocaleString()}</b> succeeded
      </Text>
      <Text fz="sm" c={failed ? 'red' : undefined}>
        <b>{failed.toLocaleString()}</b> failed
      </Text>
      <Text fz="sm">{Math.round(average).toLocaleString()} ms on average</Text>
      <Text fz="sm" c="dimmed">
        last {formatDate(last)}
      </Text>
    </Group>
  );
}
