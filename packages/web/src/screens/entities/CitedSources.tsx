import { useMemo } from 'react';
import { Anchor, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { countOf, humanise } from '../../lib/format.ts';
import type { Loaded } from '../../lib/data/use-endpoint.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useInspector } from '../../components/Inspector.tsx';

type CitationPage = ResponseOf<typeof nodeEndpoints.citations>;
type Citation = CitationPage['data'][number];

/**
 * The sources that state something (an entity, a relationship), each with its sentences opening the passage
 * they are in; `none` says why there is none.
 */
export function CitedSources({
  citations,
  none,
  headingOrder = 2,
}: {
  citations: Loaded<CitationPage>;
  none: string;
  /** The level of each source's heading, under the page's own. */
  headingOrder?: 2 | 3;
}) {
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
        {none}
      </Text>
    );
  return (
    <Stack gap="sm">
      {bySource.map((group) => {
        const { source } = group[0];
        return (
          <Paper key={source.id} withBorder p="sm" radius="md">
            <Title order={headingOrder} fz="md">
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
