import { Anchor, Badge, Code, Drawer, Group, List, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { api } from '../lib/api.ts';
import { useLoad } from '../lib/use-load.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

/** An entity (graph node): its properties, connections and the passages that cite it. */
export function NodeDrawer({ nodeId, onClose, onOpenNode, onOpenPassage }: {
  nodeId: string | null; onClose: () => void; onOpenNode: (id: string) => void; onOpenPassage: (sourceId: string, chunkId: string, sentence: string | null) => void;
}) {
  const node = useLoad(async () => {
    if (!nodeId) return null;
    const params = { node_id: nodeId };
    const [detail, connections, citations] = await Promise.all([
      api.call(nodeEndpoints.get, { params }),
      api.call(nodeEndpoints.connections, { params, query: { page_size: 50 } }),
      api.call(nodeEndpoints.citations, { params, query: { page_size: 20 } }),
    ]);
    const template = await api.call(templateEndpoints.get, { params: { template_id: detail.template_id } }).catch(() => null);
    return { detail, template: template?.name ?? detail.template_id, connections: connections.data, citations: citations.data };
  }, [nodeId]);

  const properties = Object.entries(node.data?.detail.properties ?? {}).filter(([, value]) => hasContent(value));
  return (
    <Drawer opened={nodeId !== null} onClose={onClose} position="right" size="md" title={node.data?.detail.label ?? "Entity"}>
      {node.error && <ErrorNotice title="Could not open the entity" message={node.error} onRetry={() => void node.reload()} />}
      {!node.data && !node.error && <Skeleton h={200} />}
      {node.data && (
        <Stack gap="md" data-testid="node-drawer">
          <Group gap="xs"><Badge variant="light" tt="none">{node.data.template}</Badge><Text fz="xs" c="dimmed">{node.data.connections.length} connections</Text></Group>
          {properties.length > 0 && (
            <Table withRowBorders={false} verticalSpacing={4}>
              <Table.Tbody>
                {properties.map(([key, value]) => (
                  <Table.Tr key={key}><Table.Th w={130} fz="sm">{key.replace(/_/g, ' ')}</Table.Th><Table.Td fz="sm">{Array.isArray(value) && value.every((item) => typeof item !== 'object') ? value.join(', ') : typeof value === 'object' ? <Code>{JSON.stringify(value)}</Code> : String(value)}</Table.Td></Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <div>
            <Title order={3} fz="md" mb={4}>Connections</Title>
            {node.data.connections.length === 0 ? <Text fz="sm" c="dimmed">No relationships.</Text> : (
              <List size="sm" spacing={2}>
                {node.data.connections.map((connection) => (
                  <List.Item key={`${connection.id}-${connection.relationship}-${connection.direction}`}>
                    {connection.direction === 'outgoing' ? '→' : '←'} <Text span c="dimmed">{connection.relationship}</Text>{' '}
                    <Anchor component="button" type="button" fz="sm" onClick={() => onOpenNode(connection.id)}>{connection.label}</Anchor>
                  </List.Item>
                ))}
              </List>
            )}
          </div>
          <div>
            <Title order={3} fz="md" mb={4}>Cited in</Title>
            {node.data.citations.length === 0 ? <Text fz="sm" c="dimmed">No passage cites this entity.</Text> : (
              <Stack gap={6}>
                {node.data.citations.map(({ id, source, chunk, context_snippet: snippet }) => chunk && (
                  <Anchor key={id} component="button" type="button" ta="left" fz="sm" onClick={() => onOpenPassage(source.id, chunk.id, snippet)}>
                    <b>{source.title}</b>{chunk.page_number !== null && `, page ${chunk.page_number}`}: {snippet ?? chunk.content.slice(0, 120)}
                  </Anchor>
                ))}
              </Stack>
            )}
          </div>
        </Stack>
      )}
    </Drawer>
  );
}

/** Whether a property says anything: empty lists, objects and text are left out of the panel. */
function hasContent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}
