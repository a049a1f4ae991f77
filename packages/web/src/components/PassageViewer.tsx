import { Anchor, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { ErrorNotice } from './ErrorNotice.tsx';
import { Highlighted } from './Highlighted.tsx';
import { useEndpoint } from '../lib/data/use-endpoint.ts';

/**
 * One passage (chunk) as a person reads it, with the cited sentences marked, under the name of the
 * document it comes from and where in it (passage, page, section).
 */
export function PassageViewer({
  sourceId,
  chunkId,
  cited = [],
  withSourceLink = false,
}: {
  sourceId: string;
  chunkId: string;
  cited?: string[];
  /** Shown outside the source's own page: the document name opens it at this passage. */
  withSourceLink?: boolean;
}) {
  const passage = useEndpoint(sourceEndpoints.chunk, { params: { source_id: sourceId, chunk_id: chunkId } });
  const origin = useEndpoint(sourceEndpoints.get, { params: { source_id: sourceId } });
  const error = passage.error ?? origin.error;
  if (error)
    return (
      <ErrorNotice
        title="Could not open the passage"
        message={error}
        onRetry={() => void Promise.all([passage.reload(), origin.reload()])}
      />
    );
  if (!passage.data || !origin.data) return <Skeleton h={160} />;
  const [chunk, source] = [passage.data, origin.data];
  const name = source.title ?? source.filename ?? source.origin_url ?? source.id;
  const where = [
    `Passage ${chunk.chunk_index + 1} of ${source.chunk_count}`,
    chunk.page_number !== null ? `page ${chunk.page_number}` : null,
    chunk.section ? `section “${chunk.section}”` : null,
  ].filter(Boolean);
  return (
    <Stack gap="xs" data-testid="passage-viewer">
      <div data-testid="passage-origin">
        {withSourceLink ? (
          <Anchor
            component={Link}
            to={`/sources/${sourceId}?chunk=${chunkId}`}
            fw={600}
            style={{ overflowWrap: 'anywhere' }}
            aria-label={`${name}: open the source at this passage`}
          >
            {name}
          </Anchor>
        ) : (
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
        )}
        <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {source.title && source.filename && source.title !== source.filename ? `${source.filename} · ` : ''}
          {where.join(', ')}
        </Text>
      </div>
      <Paper withBorder p="md" radius="md">
        <Text component="div" className="passage" fz="sm">
          <Highlighted text={chunk.content} cited={cited} />
        </Text>
      </Paper>
    </Stack>
  );
}
