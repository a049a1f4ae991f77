import { useState } from 'react';
import { Anchor, Badge, Group, Pagination, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { countOf, humanise } from '../../lib/format.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ResponsiveTable } from '../../components/ResponsiveTable.tsx';

type Connection = ResponseOf<typeof nodeEndpoints.connections>['data'][number];
type SortBy = 'edge_count' | 'label' | 'relationship';

const pageSize = 50;

/** Every relationship of an entity, a page at a time: the entity at the other end, the link and its direction. */
export function EntityConnections({ nodeId }: { nodeId: string }) {
  const [sortBy, setSortBy] = useState<SortBy>('relationship');
  const [page, setPage] = useState(1);
  const connections = useEndpoint(nodeEndpoints.connections, {
    params: { node_id: nodeId },
    query: { sort_by: sortBy, page, page_size: pageSize },
  });
  if (connections.error)
    return (
      <ErrorNotice
        title="Could not load the connections"
        message={connections.error}
        onRetry={() => void connections.reload()}
      />
    );
  if (!connections.data) return <Skeleton h={200} />;
  const { data, pagination } = connections.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fz="sm" c="dimmed">
          {countOf(pagination.total, 'connection')}
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Sort connections by"
          value={sortBy}
          onChange={(value) => {
            setSortBy(value as SortBy);
            setPage(1);
          }}
          data={[
            { value: 'relationship', label: 'Relationship' },
            { value: 'label', label: 'Name' },
            { value: 'edge_count', label: 'Degree' },
          ]}
        />
      </Group>
      <ResponsiveTable<Connection>
        label="Connections"
        rows={data}
        rowKey={(row) => `${row.direction}-${row.relationship}-${row.id}`}
        columns={[
          {
            header: 'Relationship',
            phone: 'detail',
            cell: (row) =>
              row.direction === 'outgoing' ? `${humanise(row.relationship)} →` : `← ${humanise(row.relationship)}`,
          },
          {
            header: 'Entity',
            phone: 'title',
            cell: (row) => (
              <Anchor component={Link} to={`/entities/${encodeURIComponent(row.id)}`}>
                {row.label}
              </Anchor>
            ),
          },
          {
            header: 'Direction',
            phone: 'aside',
            cell: (row) => (
              <Badge variant="light" color={row.direction === 'outgoing' ? 'blue' : 'grape'} tt="none">
                {row.direction}
              </Badge>
            ),
          },
          { header: 'Its degree', phone: 'detail', cell: (row) => row.edge_count.toLocaleString() },
        ]}
      />
      {pagination.total_pages > 1 && (
        <Pagination
          total={pagination.total_pages}
          value={page}
          onChange={setPage}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      )}
    </Stack>
  );
}
