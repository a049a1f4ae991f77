import { Badge, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { humanise } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useInspector } from '../../components/Inspector.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

/** The entities and relationships extracted from one source; each entity opens its node. */
export function SourceEntities({ sourceId }: { sourceId: string }) {
  const { openNode } = useInspector();
  const nodes = useEndpoint(nodeEndpoints.list, { query: { source_ids: sourceId, minimal: true, page_size: 500 } });
  const edges = useEndpoint(edgeEndpoints.list, { query: { source_ids: sourceId, minimal: true, page_size: 500 } });
  const templates = useEndpoint(templateEndpoints.list, { query: { template_type: 'node', page_size: 1000 } });
  const graph = {
    error: nodes.error ?? edges.error ?? templates.error,
    reload: () => Promise.all([nodes.reload(), edges.reload(), templates.reload()]),
    data:
      nodes.data && edges.data && templates.data
        ? {
            nodes: nodes.data.data,
            edges: edges.data.data,
            totalNodes: nodes.data.pagination.total,
            totalEdges: edges.data.pagination.total,
            templateNames: new Map(templates.data.data.map((template) => [template.id, template.name])),
          }
        : undefined,
  };
  if (graph.error)
    return (
      <ErrorNotice title="Could not load the entities" message={graph.error} onRetry={() => void graph.reload()} />
    );
  if (!graph.data) return <Skeleton h={200} />;
  if (graph.data.nodes.length === 0)
    return (
      <Text c="dimmed" fz="sm">
        No entities yet: they appear once the extraction is written to the graph.
      </Text>
    );
  const labels = new Map(graph.data.nodes.map((node) => [node.id, node.label]));
  return (
    <Stack gap="md">
      <div>
        <Title order={2} fz="md" mb="xs">
          Entities ({graph.data.totalNodes})
        </Title>
        <Group gap={6}>
          {graph.data.nodes.map((node) => (
            <Button
              key={node.id}
              size="compact-sm"
              variant="light"
              radius="xl"
              onClick={() => openNode(node.id)}
              rightSection={
                <Badge size="xs" variant="transparent" tt="none">
                  {graph.data!.templateNames.get(node.template_id) ?? node.template_id}
                </Badge>
              }
            >
              {node.label}
            </Button>
          ))}
        </Group>
      </div>
      <div>
        <Title order={2} fz="md" mb="xs">
          Relationships ({graph.data.totalEdges})
        </Title>
        <Stack gap={2}>
          {graph.data.edges.map((edge) => (
            <Text key={edge.id} fz="sm">
              {labels.get(edge.source_node_id) ?? '…'}{' '}
              <Text span c="dimmed" inherit>
                — {humanise(edge.label)} →
              </Text>{' '}
              {labels.get(edge.target_node_id) ?? '…'}
            </Text>
          ))}
        </Stack>
      </div>
    </Stack>
  );
}
