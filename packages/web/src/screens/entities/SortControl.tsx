import { ActionIcon, Group, Select, Tooltip } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';

export type SortOrder = 'asc' | 'desc';

export interface SortChoice<By extends string> {
  value: By;
  label: string;
  /** The order it starts in when picked: names read A to Z, figures and dates largest or newest first. */
  order: SortOrder;
}

/**
 * What a server-paged list is sorted by, and which way. `by` empty means creation order; the choice is
 * sent to the server, which sorts every page, not just the one on view.
 */
export function SortControl<By extends string>({
  choices,
  by,
  order,
  disabled,
  onChange,
}: {
  choices: readonly SortChoice<By>[];
  /** As read from the address: an unknown field is creation order, an unknown direction the field's own. */
  by: string;
  order: string;
  /** While a search ranks the rows by relevance. */
  disabled?: boolean;
  onChange: (change: { sort: By | null; order: SortOrder | null }) => void;
}) {
  const chosen = choices.find((choice) => choice.value === by) ?? choices[0];
  const current: SortOrder = order === 'asc' || order === 'desc' ? order : chosen.order;
  const flipped: SortOrder = current === 'asc' ? 'desc' : 'asc';
  const orderName = (which: SortOrder) => (which === 'asc' ? 'ascending' : 'descending');
  return (
    <Group gap={4} align="flex-end" wrap="nowrap">
      <Select
        label="Sort by"
        data={choices.map(({ value, label }) => ({ value, label }))}
        value={chosen.value}
        onChange={(value) => {
          const next = choices.find((choice) => choice.value === value) ?? choices[0];
          onChange({ sort: next === choices[0] ? null : next.value, order: null });
        }}
        allowDeselect={false}
        disabled={disabled}
        description={disabled ? 'A search lists the best matches first' : undefined}
        w={{ base: '100%', sm: 160 }}
      />
      <Tooltip label={`Sorted ${orderName(current)}; sort ${orderName(flipped)}`}>
        <ActionIcon
          variant="default"
          size={36}
          disabled={disabled}
          aria-label={`Sort ${orderName(flipped)}`}
          onClick={() =>
            onChange({
              sort: chosen === choices[0] ? null : chosen.value,
              order: flipped === chosen.order ? null : flipped,
            })
          }
        >
          {current === 'asc' ? <IconSortAscending size={18} /> : <IconSortDescending size={18} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
