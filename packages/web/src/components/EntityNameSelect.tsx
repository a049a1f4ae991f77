import { Select } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface Option {
  value: string;
  label: string;
}

/**
 * A required select of entities found by typing part of a name. The caller finds the matches (the
 * server's search, or the loaded graph) and says what an empty result means; the options are shown as
 * found, never filtered again here.
 */
export function EntityNameSelect({
  label,
  query,
  onQueryChange,
  options,
  nothingFound,
  value,
  onChange,
  autoFocus,
}: {
  label: string;
  query: string;
  onQueryChange: (query: string) => void;
  options: Option[];
  nothingFound: string | undefined;
  value: string | null;
  onChange: (id: string | null, option: Option | null) => void;
  autoFocus?: boolean;
}) {
  return (
    <Select
      label={label}
      placeholder="Type part of its name…"
      leftSection={<IconSearch size={16} />}
      searchable
      searchValue={query}
      onSearchChange={onQueryChange}
      data={options}
      filter={({ options: all }) => all}
      nothingFoundMessage={nothingFound}
      value={value}
      onChange={(id, option) => onChange(id, id && option ? { value: id, label: option.label } : null)}
      data-autofocus={autoFocus || undefined}
      required
    />
  );
}
