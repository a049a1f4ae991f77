import { useMemo, useState } from 'react';
import { findNodes, type KnowledgeGraph } from '../../lib/graph-model.ts';
import { EntityNameSelect } from '../EntityNameSelect.tsx';

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
    <EntityNameSelect
      label={label}
      query={query}
      onQueryChange={setQuery}
      options={options}
      nothingFound={query.trim() ? 'No entity with that name in the loaded graph' : undefined}
      value={value}
      onChange={onChange}
      autoFocus={autoFocus}
    />
  );
}
