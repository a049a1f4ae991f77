import { useEffect, useMemo, useState } from 'react';
import { nodeTagEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { Button, Group, Pagination, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { countOf } from '../../lib/format.ts';
import { useRefresh } from '../../lib/data/use-action.ts';
import { BulkBar } from '../../components/bulk/BulkBar.tsx';
import { BulkJobDialog } from '../../components/bulk/BulkJobDialog.tsx';
import { nodesPerTagRequest, sendNodeTagPart } from '../../components/bulk/node-tag-requests.ts';
import { useBulkJob } from '../../components/bulk/use-bulk-job.ts';
import { useRequestJob } from '../../components/bulk/use-request-job.ts';
import { useSelection } from '../../components/bulk/use-selection.ts';
import { ListStates } from '../../components/ListStates.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EntityBulkActions } from './EntityBulkActions.tsx';
import { EntityTable } from './EntityTable.tsx';
import { GraphListFilters } from './GraphListFilters.tsx';
import { NewEntityModal } from './NewEntityModal.tsx';
import { SortControl } from './SortControl.tsx';
import { entityPageSize, entitySortChoices, useEntityPage } from './use-entity-list.ts';
import { useSourceTitles } from './use-source-titles.ts';
import { useTemplatesOf } from './use-templates-of.ts';
import { useUrlFilter } from './use-url-filter.ts';

const filterKeys = ['type', 'source', 'tag', 'entity_tag', 'q', 'sort', 'order'] as const;

/** Every entity of the graph, a server page at a time, to find, fix, retype, merge or delete many at once. */
export default function EntitiesScreen() {
  const [filter, setFilter] = useUrlFilter(filterKeys);
  const page = useEntityPage(filter);
  const { titles, options } = useSourceTitles();
  const templates = useTemplatesOf('node');
  const rows = page.rows ?? [];
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);
  const selection = useSelection(ids, page.total);
  const { job, start, dismiss } = useBulkJob('rhizome:bulk:entities');
  useRequestJob(job, start, sendNodeTagPart, nodesPerTagRequest);
  const entityTags = useEndpoint(nodeTagEndpoints.list);
  const [creating, setCreating] = useState(false);
  const refresh = useRefresh();
  const { clear } = selection;
  useEffect(clear, [filter.type, filter.source, filter.tag, filter.entity_tag, filter.q, clear]);

  const pages = Math.max(1, Math.ceil(page.total / entityPageSize));
  return (
    <Stack gap="md">
      <PageHeader title="Entities" description="The people, places, things and ideas in your graph.">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New entity
        </Button>
      </PageHeader>
      <Group gap="sm" align="flex-end" justify="space-between" wrap="wrap">
        <GraphListFilters
          types={templates.options}
          values={filter}
          sources={options}
          entityTags={(entityTags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
          searchLabel="Search entities"
          onChange={setFilter}
        />
        <SortControl
          choices={entitySortChoices}
          by={filter.sort}
          order={filter.order}
          disabled={filter.q.trim() !== ''}
          onChange={setFilter}
        />
      </Group>
      <BulkBar selection={selection} noun={['entity', 'entities']}>
        <EntityBulkActions
          selection={selection}
          rows={rows}
          allIds={page.allIds}
          onJob={start}
          onDone={() => {
            clear();
            page.reload();
          }}
        />
      </BulkBar>
      <ListStates
        what="entities"
        error={page.error}
        rows={page.rows}
        onRetry={page.reload}
        empty={
          filter.q || filter.type || filter.source || filter.tag || filter.entity_tag
            ? 'No entity matches these filters.'
            : 'No entities yet: add a source and Rhizome extracts them, or create one.'
        }
      >
        <EntityTable rows={rows} selection={selection} sourceTitles={titles} typeName={templates.nameOf} />
      </ListStates>
      <Group justify="space-between">
        <Text fz="sm" c="dimmed" aria-live="polite">
          {page.loading ? 'Loading…' : countOf(page.total, 'entity', 'entities')}
          {filter.q && page.total >= 1000 ? ' (the best 1,000 matches)' : ''}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={Math.min(filter.page, pages)}
            onChange={(next) => setFilter({ page: next })}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        )}
      </Group>
      <NewEntityModal opened={creating} onClose={() => setCreating(false)} />
      <BulkJobDialog job={job} onClose={dismiss} onSettled={() => void refresh([{ tag: 'nodes' }])} />
    </Stack>
  );
}
