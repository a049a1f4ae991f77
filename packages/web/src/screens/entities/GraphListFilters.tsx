import { useEffect, useState } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

export interface FilterOption {
  value: string;
  label: string;
}

/**
 * The type, source, source tag (and, for entities, entity tag) filters and the search box of a graph
 * list; the search is sent once typing pauses.
 */
export function GraphListFilters({
  types,
  values,
  sources,
  entityTags,
  searchLabel,
  onChange,
}: {
  /** The types the list can be filtered by (entity templates, relationship labels). */
  types: FilterOption[];
  values: { type: string; source: string; tag: string; entity_tag?: string; q?: string };
  sources: FilterOption[];
  /** The entity tags to filter by; leaves out that filter when not given. */
  entityTags?: FilterOption[];
  /** Leaves out the search box when not given. */
  searchLabel?: string;
  onChange: (change: Partial<Record<'type' | 'source' | 'tag' | 'entity_tag' | 'q', string | null>>) => void;
}) {
  const tags = useEndpoint(sourceEndpoints.listTags);
  const [text, setText] = useState(values.q ?? '');
  const [typed] = useDebouncedValue(text, 300);
  useEffect(() => {
    if (searchLabel && typed !== (values.q ?? '')) onChange({ q: typed });
  }, [typed]);

  const tagOptions = (tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }));
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {searchLabel && (
        <TextInput
          label={searchLabel}
          leftSection={<IconSearch size={16} />}
          placeholder="Name or words in it"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          w={{ base: '100%', sm: 220 }}
        />
      )}
      <Select
        label="Type"
        placeholder="Every type"
        data={types}
        value={values.type || null}
        onChange={(type) => onChange({ type })}
        clearable
        searchable
        w={{ base: '100%', sm: 190 }}
      />
      <Select
        label="Source"
        placeholder="Every source"
        data={sources}
        value={values.source || null}
        onChange={(source) => onChange({ source })}
        clearable
        searchable
        w={{ base: '100%', sm: 200 }}
      />
      <Select
        label="Source tag"
        placeholder="Any tag"
        data={tagOptions}
        value={values.tag || null}
        onChange={(tag) => onChange({ tag })}
        clearable
        w={{ base: '100%', sm: 170 }}
      />
      {entityTags && (
        <Select
          label="Entity tag"
          placeholder="Any tag"
          data={entityTags}
          value={values.entity_tag || null}
          onChange={(entity_tag) => onChange({ entity_tag })}
          clearable
          searchable
          w={{ base: '100%', sm: 170 }}
        />
      )}
    </Group>
  );
}
