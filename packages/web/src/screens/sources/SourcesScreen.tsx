import { useCallback, useEffect, useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFiles, IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router-dom';
import {
  sourceEndpoints,
  sourceStatuses,
  type SourceResponseBody,
  type SourceStatus,
} from '@rhizome/contracts/api/sources';
import { countOf } from '../../lib/format.ts';
import { useChangeMode } from '../../lib/ChangesProvider.tsx';
import { useRefresh } from '../../lib/data/use-action.ts';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { BulkBar } from '../../components/bulk/BulkBar.tsx';
import { BulkJobDialog } from '../../components/bulk/BulkJobDialog.tsx';
import { sendSourcePart, sourcesPerRequest } from '../../components/bulk/source-requests.ts';
import { useBulkJob } from '../../components/bulk/use-bulk-job.ts';
import { useRequestJob } from '../../components/bulk/use-request-job.ts';
import { useSelection } from '../../components/bulk/use-selection.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ConfirmDomainModal } from './ConfirmDomainModal.tsx';
import { statusLabel } from './progress.ts';
import { SourceBulkActions } from './SourceActions.tsx';
import { SourceTable } from './SourceTable.tsx';
import { UploadPanel } from './UploadPanel.tsx';

/** The status filter lives in the address (`?status=awaiting_confirmation`), so a link can open the list filtered. */
function useStatusFilter(): [SourceStatus | null, (status: SourceStatus | null) => void] {
  const [search, setSearch] = useSearchParams();
  const wanted = search.get('status');
  const status = sourceStatuses.find((known) => known === wanted) ?? null;
  const setStatus = useCallback(
    (next: SourceStatus | null) =>
      setSearch(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set('status', next);
          else updated.delete('status');
          return updated;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return [status, setStatus];
}

export default function SourcesScreen() {
  const [status, setStatus] = useStatusFilter();
  const [sourceType, setSourceType] = useState<string | null>(null);
  const [tagId, setTagId] = useState<string | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText, 250);
  const listFilter = useMemo(
    () => ({
      status: status ?? undefined,
      source_type: sourceType ?? undefined,
      tag_id: tagId ?? undefined,
      search: search || undefined,
    }),
    [status, sourceType, tagId, search],
  );
  const sources = useEndpointPages(sourceEndpoints.list, { query: listFilter });
  const tags = useEndpoint(sourceEndpoints.listTags);
  const [reviewing, setReviewing] = useState<SourceResponseBody | null>(null);
  const mode = useChangeMode();
  const refresh = useRefresh();
  const changed = useCallback(() => void refresh([{ tag: 'sources' }]), [refresh]);

  const filtered = Boolean(status || sourceType || tagId || search);
  const list = useMemo(() => sources.data ?? [], [sources.data]);
  // Every matching source is loaded, so the page on view is all of them.
  const ids = useMemo(() => list.map((source) => source.id), [list]);
  const selection = useSelection(ids, list.length);
  const { clear } = selection;
  useEffect(clear, [status, sourceType, tagId, search, clear]);
  const chosen = useMemo(
    () => (selection.allMatching ? list : list.filter((source) => selection.isSelected(source.id))),
    [list, selection],
  );
  const { job, start, dismiss } = useBulkJob('rhizome:bulk:sources');
  useRequestJob(job, start, sendSourcePart, sourcesPerRequest);
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
      <UploadPanel onAdded={changed} />
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
          data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: `${tag.name} (${tag.source_count})` }))}
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
        <>
          <BulkBar selection={selection} noun={['source', 'sources']}>
            <SourceBulkActions
              chosen={chosen}
              matching={selection.allMatching ? listFilter : undefined}
              onJob={(next) => {
                start(next);
                clear();
              }}
            />
          </BulkBar>
          <SourceTable sources={list} selection={selection} onReview={setReviewing} />
        </>
      )}
      <BulkJobDialog job={job} onClose={dismiss} onSettled={changed} />
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
