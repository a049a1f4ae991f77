import { useMemo, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { searchEndpoints } from '@rhizome/contracts/api/search';
import { EntityNameSelect } from '../../components/EntityNameSelect.tsx';
import { asTyped } from '../../components/palette/matches.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

export interface EntityChoice {
  id: string;
  label: string;
}

/** How many entities a name search offers. */
const offered = 20;

/**
 * Picks any entity of the graph by typing part of its name: the server's keyword search answers once
 * typing pauses (the graph may hold more entities than a list could offer).
 */
export function EntitySearchSelect({
  label,
  value,
  onChange,
  exclude,
  autoFocus,
}: {
  label: string;
  value: EntityChoice | null;
  onChange: (entity: EntityChoice | null) => void;
  /** An entity not to offer (the other end of a relationship). */
  exclude?: string;
  autoFocus?: boolean;
}) {
  const [query, setQuery] = useState('');
  const [typed] = useDebouncedValue(query.trim(), 200);
  const asked = typed.length >= 2 && typed !== value?.label ? typed : null;
  const found = useEndpoint(
    searchEndpoints.search,
    asked ? { query: { q: asTyped(asked), search_type: 'keyword', limit: offered } } : null,
  );
  const options = useMemo(() => {
    const hits = (found.data?.data ?? []).flatMap((hit) =>
      hit.node && hit.node.id !== exclude ? [{ value: hit.node.id, label: hit.node.label }] : [],
    );
    if (value && !hits.some((hit) => hit.value === value.id)) hits.unshift({ value: value.id, label: value.label });
    return hits;
  }, [found.data, value, exclude]);
  return (
    <EntityNameSelect
      label={label}
      query={query}
      onQueryChange={setQuery}
      options={options}
      nothingFound={
        query.trim().length < 2 ? 'Type at least two letters' : found.loading ? 'Searching…' : 'No entity by that name'
      }
      value={value?.id ?? null}
      onChange={(_id, option) => onChange(option ? { id: option.value, label: option.label } : null)}
      autoFocus={autoFocus}
    />
  );
}
