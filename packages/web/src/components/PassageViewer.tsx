import { Anchor, Badge, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { api } from '../lib/api.ts';
import { useLoad } from '../lib/use-load.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { Highlighted } from './Highlighted.tsx';

/** One passage (chunk) of a source with its page and section, the cited sentences marked. */
export function PassageViewer({
  sourceId,
  chunkId,
  cited = [],
  withSourceLink = false,
}: {
  sourceId: string;
  chunkId: string;
  cited?: string[];
  withSourceLink?: boolean;
}) {
  const chunk = useLoad(
    () => api.call(sourceEndpoints.chunk, { params: { source_id: sourceId, chunk_id: chunkId } }),
    [sourceId, chunkId],
  );
  if (chunk.error)
    return <ErrorNotice title="Could not open the passage" message={chunk.error} onRetry={() => void chunk.reload()} />;
  if (!chunk.data) return <Skeleton h={160} />;
  const { data } = chunk;
  return (
    <Stack gap="xs" data-testid="passage-viewer">
      <Group gap="xs">
        <Badge variant="light">Passage {data.chunk_index + 1}</Badge>
        {data.page_number !== null && (
          <Badge variant="light" color="gray">
            Page {data.page_number}
          </Badge>
        )}
        {data.section && (
          <Badge variant="light" color="gray" maw={260}>
            {data.section}
          </Badge>
        )}
        {withSourceLink && (
          <Anchor component={Link} to={`/sources/${sourceId}?chunk=${chunkId}`} fz="sm" ml="auto">
            Open the source
          </Anchor>
        )}
      </Group>
      <Paper withBorder p="md" radius="md">
        <Text component="div" className="passage" fz="sm">
          <Highlighted text={data.content} cited={cited} />
        </Text>
      </Paper>
    </Stack>
  );
}
