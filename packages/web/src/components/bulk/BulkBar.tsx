import type { ReactNode } from 'react';
import { Button, Checkbox, Group, Paper, Text } from '@mantine/core';
import { countOf } from '../../lib/format.ts';
import type { Selection } from './use-selection.ts';

/**
 * The bar over a paged list with a checkbox column: tick the page, widen to "all N matching", clear, and the
 * actions for the selection (`children`, shown once something is selected).
 */
export function BulkBar({
  selection,
  noun,
  children,
}: {
  selection: Selection;
  /** What a row is, singular and plural: ['entity', 'entities']. */
  noun: readonly [string, string];
  children: ReactNode;
}) {
  const { count, total, page, allMatching } = selection;
  const plural = noun[1];
  return (
    <Paper withBorder radius="md" px="sm" py={6} mb="sm" data-testid="bulk-bar">
      <Group justify="space-between" gap="xs" mih={36}>
        <Group gap="sm">
          <Checkbox
            aria-label={`Select every ${noun[0]} on this page`}
            checked={page === 'all'}
            indeterminate={page === 'some'}
            onChange={selection.togglePage}
            disabled={total === 0}
          />
          <Text fz="sm" aria-live="polite">
            {count === 0 ? `Select ${plural} to act on them` : `${countOf(count, noun[0], plural)} selected`}
          </Text>
          {page === 'all' && !allMatching && total > count && (
            <Button variant="subtle" size="compact-sm" onClick={selection.selectAllMatching}>
              Select all {total.toLocaleString()} matching
            </Button>
          )}
          {count > 0 && (
            <Button variant="subtle" size="compact-sm" color="gray" onClick={selection.clear}>
              Clear selection
            </Button>
          )}
        </Group>
        {count > 0 && <Group gap="xs">{children}</Group>}
      </Group>
    </Paper>
  );
}

/** The checkbox of one row, named after the row for screen readers. */
export function SelectCheckbox({ selection, id, name }: { selection: Selection; id: string; name: string }) {
  return (
    <Checkbox aria-label={`Select ${name}`} checked={selection.isSelected(id)} onChange={() => selection.toggle(id)} />
  );
}
