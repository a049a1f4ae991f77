import { useEffect, useMemo, useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { IconPlus } from '@tabler/icons-react';
import { countOf, formatDate, humanise } from '../../lib/format.ts';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { useRefresh } from '../../lib/data/use-action.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { BulkBar, SelectCheckbox } from '../../components/bulk/BulkBar.tsx';
import { BulkJobDialog } from '../../components/bulk/BulkJobDialog.tsx';
import { queueGraphBatch, type GraphOperation } from '../../components/bulk/graph-batch.ts';
import { useBulkJob } from '../../components/bulk/use-bulk-job.ts';
import { useSelection } from '../../components/bulk/use-selection.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { ListStates } from '../../components/ListStates.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ResponsiveTable } from '../../components/ResponsiveTable.tsx';
import { confidenceOf } from '../entities/EntityTable.tsx';
import { GraphListFilters } from '../entities/GraphListFilters.tsx';
import { SortControl } from '../entities/SortControl.tsx';
import { sortQuery, useSourceScope } from '../entities/use-entity-list.ts';
import { useSourceTitles } from '../entities/use-source-titles.ts';
import { useUrlFilter } from '../entities/use-url-filter.ts';
import { NewRelationshipModal } from './NewRelationshipModal.tsx';
import {
  relationshipPageSize,
  relationshipSortChoices,
  useRelationshipPage,
  useRelationshipTypes,
  type Relationship,
} from './use-relationship-page.ts';

const filterKeys = ['type', 'source', 'tag', 'sort', 'order'] as const;

/** Every relationship of the graph, a server page at a time, to find by type, create, relabel or delete many at once. */
export default function RelationshipsScreen() {
  const [filter, setFilter] = useUrlFilter(filterKeys);
  const { scope, ready } = useSourceScope({ ...filter });
  const page = useRelationshipPage({
    sourceIds: ready ? scope : [],
    label: filter.type || undefined,
    page: filter.page,
    order: sortQuery(relationshipSortChoices, filter.sort, filter.order),
  });
  const { options } = useSourceTitles();
  const types = useRelationshipTypes();
  const rows = page.rows ?? [];
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);
  const selection = useSelection(ids, page.total);
  const { job, start, dismiss } = useBulkJob('rhizome:bulk:relationships');
  const [dialog, setDialog] = useState<'delete' | 'relabel' | null>(null);
  const [label, setLabel] = useState('');
  const [creating, setCreating] = useState(false);
  const { busy, failure, run } = useSubmit();
  const refresh = useRefresh();
  const { clear } = selection;
  useEffect(clear, [filter.type, filter.source, filter.tag, clear]);
  const what = countOf(selection.count, 'relationship');

  const queue = (title: string, operation: (id: string) => GraphOperation) =>
    run(async () => {
      const chosen = selection.allMatching ? await page.allIds() : selection.ids;
      start(await queueGraphBatch('edges', chosen.map(operation), title));
      announceGraphChanged();
      setDialog(null);
      clear();
    });
  const pages = Math.max(1, Math.ceil(page.total / relationshipPageSize));
  return (
    <Stack gap="md">
      <PageHeader title="Relationships" description="How the entities of your graph are linked, and where it says so.">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New relationship
        </Button>
      </PageHeader>
      <Group gap="sm" align="flex-end" justify="space-between" wrap="wrap">
        <GraphListFilters types={types} values={filter} sources={options} onChange={setFilter} />
        <SortControl choices={relationshipSortChoices} by={filter.sort} order={filter.order} onChange={setFilter} />
      </Group>
      <BulkBar selection={selection} noun={['relationship', 'relationships']}>
        <Button size="xs" variant="default" onClick={() => setDialog('relabel')}>
          Change relationship
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => setDialog('delete')}>
          Delete
        </Button>
      </BulkBar>
      <ListStates
        what="relationships"
        error={page.error}
        rows={page.rows}
        onRetry={page.reload}
        empty={
          filter.type || filter.source || filter.tag
            ? 'No relationship matches these filters.'
            : 'No relationships yet.'
        }
      >
        <ResponsiveTable<Relationship>
          label="Relationships"
          rows={rows}
          rowKey={(row) => row.id}
          highlightOnHover
          verticalSpacing={6}
          columns={[
            {
              header: 'Select',
              hideHeader: true,
              phone: 'aside',
              width: 44,
              cell: (row) => (
                <SelectCheckbox
                  selection={selection}
                  id={row.id}
                  name={`${page.nameOf(row.source_node_id)} ${humanise(row.label)} ${page.nameOf(row.target_node_id)}`}
                />
              ),
            },
            {
              header: 'From',
              phone: 'detail',
              cell: (row) => (
                <Anchor component={Link} to={`/entities/${encodeURIComponent(row.source_node_id)}`} fz="sm">
                  {page.nameOf(row.source_node_id)}
                </Anchor>
              ),
            },
            {
              header: 'Relationship',
              phone: 'title',
              cell: (row) => (
                <Anchor component={Link} to={`/relationships/${encodeURIComponent(row.id)}`} fw={500} fz="sm">
                  {humanise(row.label)}
                </Anchor>
              ),
            },
            {
              header: 'To',
              phone: 'detail',
              cell: (row) => (
                <Anchor component={Link} to={`/entities/${encodeURIComponent(row.target_node_id)}`} fz="sm">
                  {page.nameOf(row.target_node_id)}
                </Anchor>
              ),
            },
            { header: 'Confidence', phone: 'detail', width: 100, cell: (row) => confidenceOf(row.properties) },
            { header: 'Updated', phone: 'hidden', width: 210, cell: (row) => formatDate(row.updated_at) },
          ]}
        />
      </ListStates>
      <Group justify="space-between">
        <Text fz="sm" c="dimmed" aria-live="polite">
          {page.loading ? 'Loading…' : countOf(page.total, 'relationship')}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={Math.min(filter.page, pages)}
            onChange={(next) => setFilter({ page: next })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        )}
      </Group>
      <ConfirmDelete
        opened={dialog === 'delete'}
        title={`Delete ${what}?`}
        busy={busy}
        onKeep={() => setDialog(null)}
        onDelete={() => void queue(`Deleting ${what}`, (id) => ({ operation: 'delete', data: { id } }))}
      >
        The entities at their ends stay. This runs in the background; a dialog shows how it goes.
      </ConfirmDelete>
      <Modal opened={dialog === 'relabel'} onClose={() => setDialog(null)} title={`Change ${what}`}>
        <Stack gap="sm">
          <TextInput
            label="New relationship"
            description="What links the two ends, such as works_for or born_in"
            value={label}
            onChange={(event) => setLabel(event.currentTarget.value)}
            data-autofocus
          />
          {failure && <Alert color="red">{typeof failure === 'string' ? failure : failure.message}</Alert>}
          <Group justify="flex-end">
            <Button
              disabled={!label.trim()}
              loading={busy}
              onClick={() =>
                void queue(`Changing ${what} to ${label.trim()}`, (id) => ({
                  operation: 'update',
                  data: { id, label: label.trim() },
                }))
              }
            >
              Change relationship
            </Button>
          </Group>
        </Stack>
      </Modal>
      <NewRelationshipModal opened={creating} onClose={() => setCreating(false)} />
      <BulkJobDialog job={job} onClose={dismiss} onSettled={() => void refresh([{ tag: 'edges' }])} />
    </Stack>
  );
}
