import { useCallback, useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFiles, IconSearch } from '@tabler/icons-react';
import {
  sourceEndpoints,
  sourceStatuses,
  type SourceResponseBody,
  type SourceStatus,
} from '@rhizome/contracts/api/sources';
import { api } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useChanges } from '../../lib/changes.tsx';
import { useLoad } from '../../lib/use-load.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ConfirmDomainModal } from './ConfirmDomainModal.tsx';
import { statusLabel } from './progress.ts';
import { SourceTable } from './SourceTable.tsx';
import { UploadPanel } from './UploadPanel.tsx';

interface Filters {
  status: SourceStatus | null;
  sourceType: string | null;
  tagId: string | null;
  search: string;
}

const pageSize = 1000;

/** All sources matching the filters, page after page (the table is virtualised). */
async function loadAll(filters: Filters, signal: AbortSignal): Promise<SourceResponseBody[]> {
  const all: SourceResponseBody[] = [];
  for (let page = 1; ; page += 1) {
    const result = await api.call(sourceEndpoints.list, {
      query: {
        page,
        page_size: pageSize,
        status: filters.status ?? undefined,
        source_type: filters.sourceType ?? undefined,
        tag_id: filters.tagId ?? undefined,
        search: filters.search || undefined,
      },
      signal,
    });
    all.push(...result.data);
    if (!result.pagination.has_next) return all;
  }
}

function matches(source: SourceResponseBody, filters: Filters): boolean {
  if (filters.status && source.status !== filters.status) return false;
  if (filters.sourceType && source.source_type !== filters.sourceType) return false;
  if (filters.tagId && !source.tags.some((tag) => tag.id === filters.tagId)) return false;
  const needle = filters.search.trim().toLowerCase();
  return (
    !needle || [source.title, source.filename, source.origin_url].some((text) => text?.toLowerCase().includes(needle))
  );
}

export default function SourcesScreen() {
  const [status, setStatus] = useState<SourceStatus | null>(null);
  const [sourceType, setSourceType] = useState<string | null>(null);
  const [tagId, setTagId] = useState<string | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText, 250);
  const filters = useMemo<Filters>(() => ({ status, sourceType, tagId, search }), [status, sourceType, tagId, search]);
  const sources = useLoad((signal) => loadAll(filters, signal), [filters]);
  const tags = useLoad(() => api.call(sourceEndpoints.listTags), []);
  const [reviewing, setReviewing] = useState<SourceResponseBody | null>(null);

  const { set } = sources;
  const upsert = useCallback(
    (changed: SourceResponseBody[]) =>
      set((current) => {
        const list = [...(current ?? [])];
        for (const source of changed) {
          const at = list.findIndex((known) => known.id === source.id);
          const keep = matches(source, filters);
          if (at >= 0) {
            if (keep) list[at] = source;
            else list.splice(at, 1);
          } else if (keep) list.unshift(source);
        }
        return list;
      }),
    [set, filters],
  );
  const refresh = useCallback(
    (id: string) =>
      void api.call(sourceEndpoints.get, { params: { source_id: id } }).then(
        (source) => upsert([source]),
        () => undefined,
      ),
    [upsert],
  );
  const removed = useCallback((id: string) => set((current) => current?.filter((source) => source.id !== id)), [set]);
  const mode = useChanges(
    (event) => {
      if (event.type === 'source') upsert([event.source]);
      else if (event.type === 'source_deleted') removed(event.source_id);
      else if (event.type === 'database') void sources.reload();
    },
    () => void sources.reload(),
  );

  const filtered = Boolean(status || sourceType || tagId || search);
  const list = sources.data ?? [];
  return (
    <Stack gap="md">
      <PageHeader title="Sources" description="Documents and pages Rhizome reads, indexes and turns into a graph.">
        <Badge
          variant="dot"
          color={mode === 'live' ? 'teal' : 'yellow'}
          size="lg"
          title={
            mode === 'live' ? 'Progress updates live' : 'Live updates are reconnecting; refreshing every few seconds'
          }
        >
          {mode === 'live' ? 'Live' : 'Reconnecting'}
        </Badge>
      </PageHeader>
      <UploadPanel onAdded={upsert} />
      <Group gap="xs" align="flex-end">
        <TextInput
          aria-label="Search sources"
          placeholder="Search titles and URLs"
          leftSection={<IconSearch size={16} />}
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 240 }}
        />
        <Select
          aria-label="Status"
          placeholder="Any status"
          clearable
          data={sourceStatuses.map((value) => ({ value, label: statusLabel(value) }))}
          value={status}
          onChange={(value) => setStatus(value as SourceStatus | null)}
          w={{ base: 'calc(50% - 5px)', sm: 190 }}
        />
        <Select
          aria-label="Type"
          placeholder="Any type"
          clearable
          data={[
            { value: 'file', label: 'Files' },
            { value: 'webpage', label: 'Web pages' },
          ]}
          value={sourceType}
          onChange={setSourceType}
          w={{ base: 'calc(50% - 5px)', sm: 150 }}
        />
        <Select
          aria-label="Tag"
          placeholder="Any tag"
          clearable
          data={(tags.data?.tags ?? []).map((tag) => ({ value: tag.id, label: `${tag.name} (${tag.source_count})` }))}
          value={tagId}
          onChange={setTagId}
          w={{ base: '100%', sm: 170 }}
        />
        <Text fz="sm" c="dimmed" ml="auto" aria-live="polite">
          {sources.data ? countOf(list.length, 'source') : ' '}
        </Text>
      </Group>
      {sources.error && (
        <ErrorNotice title="Could not load the sources" message={sources.error} onRetry={() => void sources.reload()} />
      )}
      {!sources.data && !sources.error && <Skeleton h={320} radius="md" />}
      {sources.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconFiles size={40} stroke={1.3} color="var(--mantine-color-dimmed)" />
          <Text fw={600} mt="xs">
            {filtered ? 'No source matches these filters' : 'No sources yet'}
          </Text>
          <Text fz="sm" c="dimmed">
            {filtered
              ? 'Clear a filter to see more.'
              : 'Drop files in the box above or import a web page to start your graph.'}
          </Text>
          {filtered && (
            <Button
              variant="light"
              mt="sm"
              onClick={() => {
                setStatus(null);
                setSourceType(null);
                setTagId(null);
                setSearchText('');
              }}
            >
              Clear the filters
            </Button>
          )}
        </Paper>
      )}
      {list.length > 0 && (
        <SourceTable sources={list} onChanged={refresh} onDeleted={removed} onReview={setReviewing} />
      )}
      <ConfirmDomainModal
        source={reviewing}
        onClose={() => setReviewing(null)}
        onConfirmed={() => {
          setReviewing(null);
          void sources.reload();
        }}
      />
    </Stack>
  );
}
