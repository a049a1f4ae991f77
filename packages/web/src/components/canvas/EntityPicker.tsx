import { useMemo, useState } from 'react';
import { Select } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { findNodes, type KnowledgeGraph } from '../../lib/graph-model.ts';

/**
 * Picks an entity of the loaded graph by typing part of its name (the matches found as typed: a list of
 * every entity would cost a render of thousands of options).
 */
export function EntityPicker({
  graph,
  label,
  value,
  onChange,
  exclude,
  autoFocus,
}: {
  graph: KnowledgeGraph;
  label: string;
  value: string | null;
  onChange: (id: string | null) => void;
  exclude?: string;
  autoFocus?: boolean;
}) {
  const [query, setQuery] = useState('');
  const options = useMemo(() => {
    const found = findNodes(graph, query)
      .filter((match) => match.id !== exclude)
      .map((match) => ({ value: match.id, label: match.label }));
    if (value && graph.hasNode(value) && !found.some((option) => option.value === value))
      found.unshift({ value, label: graph.getNodeAttribute(value, 'label') });
    return found;
  }, [graph, query, value, exclude]);
  return (
    <Select
      label={label}
      placeholder="Type part of its name…"
      leftSection={<IconSearch size={16} />}
      searchable
      searchValue={query}
      onSearchChange={setQuery}
      data={options}
      filter={({ options: all }) => all}
      nothingFoundMessage={query.trim() ? 'No entity with that name in the loaded graph' : undefined}
      value={value}
      onChange={onChange}
      data-autofocus={autoFocus || undefined}
      required
    />
  );
}
