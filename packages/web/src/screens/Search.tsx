import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router-dom';
import { searchEndpoints, searchTypes, type SearchType } from '@rhizome/contracts/api/search';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../lib/api.ts';
import { Highlighted } from '../components/Highlighted.tsx';
import { useInspector } from '../components/Inspector.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { useEndpoint } from '../lib/data/use-endpoint.ts';

type SearchResponse = Awaited<ReturnType<typeof runSearch>>;

const modeLabels: Record<SearchType, string> = {
  keyword: 'Keyword',
  semantic: 'Semantic',
  hybrid: 'Hybrid',
  graph: 'Graph',
};
const modeHints: Record<SearchType, string> = {
  keyword: 'exact words, "phrases" and prefix*',
  semantic: 'meaning, not wording',
  hybrid: 'meaning and words together',
  graph: 'entities around the best matches',
};

function runSearch(q: string, mode: SearchType, sourceIds: string[]) {
  return api.call(searchEndpoints.search, {
    query: { q, search_type: mode, limit: 30, source_ids: sourceIds.length ? sourceIds.join(',') : undefined },
  });
}

/** The words to highlight in results: quotes and a trailing * removed. */
function termsOf(query: string): string[] {
  return query
    .replace(/["“”]/g, ' ')
    .split(/\s+/)
    .map((term) => term.replace(/\*$/, ''))
    .filter((term) => term.length > 1);
}

/** One box, four modes (one at a time or side by side), scoped by sources and tags. */
export default function Search() {
  const [text, setText] = useState('');
  const [mode, setMode] = useState<SearchType>('keyword');
  const [compare, setCompare] = useState(false);
  const [sourceIds, setSourceIds] = useState<string[]>([]);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [results, setResults] = useState<Partial<Record<SearchType, SearchResponse | string>>>({});
  const [asked, setAsked] = useState('');
  const [busy, setBusy] = useState(false);
  const sources = useEndpoint(sourceEndpoints.list, { query: { page_size: 1000 } });
  const tags = useEndpoint(sourceEndpoints.listTags);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const q = text.trim();
    if (!q) return;
    setBusy(true);
    // Tags are resolved to their sources, as chat scopes are.
    const tagged = tagIds.length
      ? (
          await Promise.all(
            tagIds.map((tagId) => api.call(sourceEndpoints.list, { query: { tag_id: tagId, page_size: 1000 } })),
          )
        ).flatMap((page) => page.data.map((source) => source.id))
      : [];
    const scoped = [...new Set([...sourceIds, ...tagged])];
    const modes = compare ? [...searchTypes] : [mode];
    const nothingTagged = tagIds.length > 0 && scoped.length === 0;
    const settled = await Promise.all(
      modes.map(
        async (each) =>
          [
            each,
            nothingTagged
              ? 'No source carries the chosen tags.'
              : await runSearch(q, each, scoped).catch((error: unknown) => messageOf(error)),
          ] as const,
      ),
    );
    setResults(Object.fromEntries(settled));
    setAsked(q);
    setBusy(false);
  }

  const shown = compare ? [...searchTypes] : [mode];
  return (
    <Stack gap="md">
      <PageHeader title="Search" description="Find passages and entities across your sources." />
      <form onSubmit={(event) => void submit(event)} role="search">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            flex={1}
            size="md"
            aria-label="Search query"
            placeholder="What are you looking for?"
            leftSection={<IconSearch size={18} />}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            data-autofocus
          />
          <Button type="submit" size="md" loading={busy} disabled={!text.trim()}>
            Search
          </Button>
        </Group>
      </form>
      <Group gap="md" align="flex-end">
        {!compare && (
          <SegmentedControl
            value={mode}
            onChange={(value) => {
              setMode(value as SearchType);
              if (asked) setResults({});
            }}
            data={searchTypes.map((value) => ({ value, label: modeLabels[value] }))}
            aria-label="Search mode"
          />
        )}
        <Switch
          label="Compare the four modes"
          checked={compare}
          onChange={(event) => {
            setCompare(event.currentTarget.checked);
            setResults({});
          }}
        />
        <MultiSelect
          aria-label="Only these sources"
          placeholder={sourceIds.length ? '' : 'All sources'}
          searchable
          clearable
          data={(sources.data?.data ?? []).map((source) => ({
            value: source.id,
            label: source.title ?? source.filename ?? source.id,
          }))}
          value={sourceIds}
          onChange={setSourceIds}
          w={{ base: '100%', sm: 260 }}
        />
        <MultiSelect
          aria-label="Only sources with these tags"
          placeholder={tagIds.length ? '' : 'Any tag'}
          clearable
          data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
          value={tagIds}
          onChange={setTagIds}
          w={{ base: '100%', sm: 200 }}
        />
      </Group>
      {!compare && (
        <Text fz="xs" c="dimmed" mt={-8}>
          {modeLabels[mode]}: {modeHints[mode]}.
        </Text>
      )}
      {!asked && !busy && (
        <Text c="dimmed">
          Type a question or a few words and press Enter. Results show matching passages and entities; open one to read
          it in context.
        </Text>
      )}
      {busy && !Object.keys(results).length && <Skeleton h={240} />}
      {asked && (
        <SimpleGrid cols={{ base: 1, md: compare ? 2 : 1, xl: compare ? 4 : 1 }} spacing="md">
          {shown.map((each) => (
            <ModeResults key={each} mode={each} result={results[each]} terms={termsOf(asked)} showTitle={compare} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function ModeResults({
  mode,
  result,
  terms,
  showTitle,
}: {
  mode: SearchType;
  result: SearchResponse | string | undefined;
  terms: string[];
  showTitle: boolean;
}) {
  const { openNode, openPassage } = useInspector();
  if (result === undefined) return <Skeleton h={200} />;
  const title = showTitle && (
    <Title order={2} fz="md">
      {modeLabels[mode]}
    </Title>
  );
  if (typeof result === 'string')
    return (
      <Stack gap="xs">
        {title}
        <Alert color="red" role="alert">
          {result}
        </Alert>
      </Stack>
    );
  const nodes = result.data.filter((hit) => hit.node).map((hit) => hit.node!);
  const chunks = result.data.filter((hit) => hit.chunk).map((hit) => ({ ...hit.chunk!, score: hit.score }));
  return (
    <Stack gap="xs" data-testid={`results-${mode}`}>
      {title}
      {result.fallback && (
        <Text fz="xs" c="dimmed">
          {result.fallback}
        </Text>
      )}
      {result.data.length === 0 && (
        <Text c="dimmed" fz="sm">
          Nothing found. Try other words{mode === 'keyword' ? ', or the semantic mode' : ''}.
        </Text>
      )}
      {nodes.length > 0 && (
        <Group gap={6}>
          {nodes.map((node) => (
            <Button
              key={node.id}
              size="compact-sm"
              radius="xl"
              variant="light"
              onClick={() => openNode(node.id)}
              rightSection={
                <Badge size="xs" variant="transparent">
                  {node.edge_count}
                </Badge>
              }
            >
              {node.label}
            </Button>
          ))}
          <Anchor
            component={Link}
            to={`/graph?highlight=${nodes.map((node) => encodeURIComponent(node.id)).join(',')}`}
            fz="sm"
          >
            Show in the graph
          </Anchor>
        </Group>
      )}
      {chunks.map((chunk) => (
        <Card
          key={chunk.chunk_id}
          withBorder
          radius="md"
          p="sm"
          component="button"
          type="button"
          onClick={() => openPassage(chunk.source_id, chunk.chunk_id)}
          style={{ textAlign: 'left', cursor: 'pointer' }}
          data-testid="chunk-result"
        >
          <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
            <Text fz="xs" fw={600} truncate>
              {chunk.filename}
              {chunk.page_number !== null ? `, page ${chunk.page_number}` : ''}
              {chunk.section ? ` · ${chunk.section}` : ''}
            </Text>
            <Text fz="xs" c="dimmed">
              {chunk.score.toFixed(2)}
            </Text>
          </Group>
          <Text fz="sm" lineClamp={4}>
            <Highlighted text={chunk.content} terms={terms} inline />
          </Text>
        </Card>
      ))}
    </Stack>
  );
}
