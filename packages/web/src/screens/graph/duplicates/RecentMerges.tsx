import { useState } from 'react';
import { Button, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { nodeMergeEndpoints } from '@rhizome/contracts/api/node-merge';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { ResponsiveTable } from '../../../components/ResponsiveTable.tsx';
import { useEndpoint } from '../../../lib/data/use-endpoint.ts';
import { formatDate } from '../../../lib/format.ts';
import type { MergeRecord } from './proposals.ts';
import { useUndoMerge } from './use-undo-merge.ts';

const pageSize = 20;

const mergedLabels = (merge: MergeRecord) => merge.merged.map((node) => `“${node.label}”`).join(', ');

/** The merges made lately, newest first, each with Undo while it can still be undone. */
export function RecentMerges() {
  const [page, setPage] = useState(1);
  const merges = useEndpoint(nodeMergeEndpoints.merges, { query: { page, page_size: pageSize } });
  const undo = useUndoMerge();
  const [undoing, setUndoing] = useState<string | null>(null);

  if (merges.error)
    return (
      <ErrorNotice title="Could not load the merges" message={merges.error} onRetry={() => void merges.reload()} />
    );
  if (!merges.data) return <Skeleton h={240} />;
  if (merges.data.data.length === 0)
    return (
      <Text c="dimmed" fz="sm">
        No merges yet. Each merge is listed here and can be undone for a while, restoring both entities exactly.
      </Text>
    );

  const undoOne = async (merge: MergeRecord) => {
    setUndoing(merge.merge_id);
    await undo.run(merge.merge_id, `“${merge.kept_label}” and ${mergedLabels(merge)}`);
    setUndoing(null);
  };

  return (
    <Stack gap="sm">
      <ResponsiveTable
        label="Recent merges"
        rows={merges.data.data}
        rowKey={(merge) => merge.merge_id}
        verticalSpacing="sm"
        fz="sm"
        columns={[
          {
            header: 'Merge',
            phone: 'title',
            cell: (merge) => (
              <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {mergedLabels(merge)} into <strong>“{merge.kept_label}”</strong>
              </Text>
            ),
          },
          { header: 'When', phone: 'detail', width: 180, cell: (merge) => formatDate(merge.merged_at) },
          {
            header: 'Undo',
            phone: 'detail',
            width: 260,
            cell: (merge) =>
              merge.undoable ? (
                <Stack gap={2} align="flex-start">
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconArrowBackUp size={14} />}
                    loading={undoing === merge.merge_id}
                    disabled={undo.pending}
                    onClick={() => void undoOne(merge)}
                  >
                    Undo<span className="visually-hidden"> the merge into {merge.kept_label}</span>
                  </Button>
                  <Text fz="xs" c="dimmed">
                    Possible until {formatDate(merge.expires_at)}
                  </Text>
                </Stack>
              ) : (
                <Text fz="xs" c="dimmed">
                  {new Date(merge.expires_at) < new Date()
                    ? `Can no longer be undone: the undo window ended on ${formatDate(merge.expires_at)}`
                    : 'Undone already, or can no longer be undone: the entities changed since'}
                </Text>
              ),
          },
        ]}
      />
      {merges.data.pagination.total_pages > 1 && (
        <Pagination total={merges.data.pagination.total_pages} value={page} onChange={setPage} size="sm" />
      )}
    </Stack>
  );
}
