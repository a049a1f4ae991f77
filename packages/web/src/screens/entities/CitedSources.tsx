import { useMemo } from 'react';
import { Anchor, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { countOf, humanise } from '../../lib/format.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useInspector } from '../../components/Inspector.tsx';

type Citation = ResponseOf<typeof nodeEndpoints.citations>['data'][number];

/** The sources that name an entity, each with the passages that cite it (the first 100 citations). */
export function EntitySources({ nodeId }: { nodeId: string }) {
  const citations = useEndpoint(nodeEndpoints.citations, { params: { node_id: nodeId }, query: { page_size: 100 } });
  const { openPassage } = useInspector();
  const bySource = useMemo(() => {
    const groups = new Map<string, Citation[]>();
    for (const citation of citations.data?.data ?? [])
      groups.set(citation.source.id, [...(groups.get(citation.source.id) ?? []), citation]);
    return [...groups.values()].sort((a, b) => b.length - a.length);
  }, [citations.data]);
  if (citations.error)
    return (
      <ErrorNotice
        title="Could not load the sources"
        message={citations.error}
        onRetry={() => void citations.reload()}
      />
    );
  if (!citations.data) return <Skeleton h={160} />;
  if (bySource.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        No source cites this entity: it was made by hand or its sources were removed.
      </Text>
    );
  return (
    <Stack gap="sm">
      {bySource.map((group) => {
        const { source } = group[0];
        return (
          <Paper key={source.id} withBorder p="sm" radius="md">
            <Title order={2} fz="md">
              <Anchor component={Link} to={`/sources/${encodeURIComponent(source.id)}`}>
                {source.title}
              </Anchor>
            </Title>
            <Text fz="xs" c="dimmed" mb={6}>
              {humanise(source.source_type)} · {countOf(group.length, 'citation')}
            </Text>
            <Stack gap={4}>
              {group.map(
                ({ id, chunk, context_snippet: snippet, confidence }) =>
                  chunk && (
                    <Anchor
                      key={id}
                      component="button"
                      type="button"
                      ta="left"
                      fz="sm"
                      onClick={() => openPassage(source.id, chunk.id, snippet ? [snippet] : [])}
                    >
                      {chunk.page_number !== null && `Page ${chunk.page_number}: `}
                      {snippet ?? chunk.content.slice(0, 160)} ({Math.round(confidence * 100)} %)
                    </Anchor>
                  ),
              )}
            </Stack>
          </Paper>
        );
      })}
      {citations.data.pagination.total > citations.data.data.length && (
        <Text fz="xs" c="dimmed">
          From the first {citations.data.data.length} of {countOf(citations.data.pagination.total, 'citation')}.
        </Text>
      )}
    </Stack>
  );
}
