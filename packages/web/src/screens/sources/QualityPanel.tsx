import { Card, Group, Progress, SimpleGrid, Text, Title } from '@mantine/core';
import { qualityEndpoints } from '@rhizome/contracts/api/quality';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { countOf } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { QualityGrade } from '../../components/QualityGrade.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

/** The quality grade of a committed source and the scores behind it. */
export function QualityPanel({ source }: { source: SourceResponseBody }) {
  const committed = source.status === 'committed';
  const quality = useEndpoint(qualityEndpoints.source, committed ? { params: { source_id: source.id } } : null);
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md" mb="xs">
        Quality
      </Title>
      {!committed && (
        <Text fz="sm" c="dimmed">
          Graded once its entities are in the graph.
        </Text>
      )}
      {quality.error && <ErrorNotice message={quality.error} onRetry={() => void quality.reload()} />}
      {quality.data && (
        <>
          <QualityGrade grade={quality.data.quality_grade} label={quality.data.quality_label} />
          <SimpleGrid mt="sm" cols={2} spacing="xs">
            {(
              [
                ['Entity quality', quality.data.avg_entity_quality],
                ['Relationship quality', quality.data.avg_relationship_quality],
                ['Density', quality.data.density_score],
                ['Topology', quality.data.topology_score],
                ['Coverage', quality.data.coverage_score],
                ['Connected entities', quality.data.connectivity_ratio * 100],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <Group justify="space-between">
                  <Text fz="xs">{label}</Text>
                  <Text fz="xs" c="dimmed">
                    {Math.round(value)}
                  </Text>
                </Group>
                <Progress value={value} size="sm" aria-label={label} />
              </div>
            ))}
          </SimpleGrid>
          <Text fz="xs" c="dimmed" mt="sm">
            {countOf(quality.data.low_quality_entity_count, 'weak entity', 'weak entities')},{' '}
            {countOf(quality.data.low_quality_relationship_count, 'weak relationship')}
            {quality.data.pollution_penalty > 0 && `, pollution penalty ${quality.data.pollution_penalty.toFixed(1)}`}
            {quality.data.structural_penalty > 0 &&
              `, structural penalty ${quality.data.structural_penalty.toFixed(1)}`}
            .
          </Text>
        </>
      )}
    </Card>
  );
}
