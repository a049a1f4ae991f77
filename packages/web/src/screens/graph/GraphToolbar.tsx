import { useMemo, useState } from 'react';
import { Badge, Button, Group, MultiSelect, Select } from '@mantine/core';
import { IconCopy, IconFilter, IconKeyboard, IconMenu2, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { findNodes, type KnowledgeGraph } from '../../lib/graph-model.ts';

interface Option {
  value: string;
  label: string;
}

/**
 * Find an entity by name, keep only some sources' entities, highlight one source's (behind a button on a
 * phone); the canvas's menu and its shortcuts; the duplicates to review are one link away.
 */
export function GraphToolbar({
  graph,
  version,
  onFind,
  sourceIds,
  onSourceIds,
  sourceOptions,
  onHighlightSource,
  onActions,
  onShortcuts,
}: {
  graph: KnowledgeGraph | undefined;
  /** Changes when the graph changed in place, so the matches are found again. */
  version: number;
  onFind: (id: string) => void;
  sourceIds: string[];
  onSourceIds: (ids: string[]) => void;
  sourceOptions: Option[];
  onHighlightSource: (id: string | null) => void;
  /** Opens the canvas's menu: the selected entity's, or the canvas's own. */
  onActions: () => void;
  onShortcuts: () => void;
}) {
  const [query, setQuery] = useState('');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const matches = useMemo(() => (graph ? findNodes(graph, query) : []), [graph, query, version]);
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <Select
        w={{ base: '100%', sm: 300 }}
        aria-label="Find an entity"
        placeholder="Find an entity…"
        leftSection={<IconSearch size={16} />}
        searchable
        searchValue={query}
        onSearchChange={setQuery}
        data={matches.map((match) => ({ value: match.id, label: match.label }))}
        filter={({ options }) => options}
        nothingFoundMessage={query.trim() ? 'No entity with that name in the loaded graph' : undefined}
        value={null}
        onChange={(id) => {
          if (!id) return;
          onFind(id);
          setQuery('');
        }}
        comboboxProps={{ withinPortal: true }}
        data-testid="graph-search"
      />
      <Button
        hiddenFrom="sm"
        variant="default"
        leftSection={<IconFilter size={16} />}
        rightSection={
          sourceIds.length > 0 && (
            <Badge size="xs" circle aria-hidden>
              {sourceIds.length}
            </Badge>
          )
        }
        aria-expanded={filtersOpen}
        aria-controls="graph-source-filters"
        onClick={() => setFiltersOpen((open) => !open)}
      >
        Sources
        {sourceIds.length > 0 && <span className="visually-hidden">, {sourceIds.length} picked</span>}
      </Button>
      <Group
        id="graph-source-filters"
        gap="xs"
        align="flex-end"
        w={{ base: '100%', sm: 'auto' }}
        display={{ base: filtersOpen ? 'flex' : 'none', sm: 'flex' }}
      >
        <MultiSelect
          w={{ base: '100%', sm: 280 }}
          aria-label="Only entities from these sources"
          placeholder={sourceIds.length ? '' : 'All sources'}
          searchable
          clearable
          data={sourceOptions}
          value={sourceIds}
          onChange={onSourceIds}
        />
        <Select
          w={{ base: '100%', sm: 240 }}
          aria-label="Highlight the entities of a source"
          placeholder="Highlight a source…"
          clearable
          data={sourceOptions}
          onChange={onHighlightSource}
        />
      </Group>
      <Button variant="default" leftSection={<IconMenu2 size={16} />} aria-haspopup="menu" onClick={onActions}>
        Actions
      </Button>
      <Button variant="default" leftSection={<IconKeyboard size={16} />} onClick={onShortcuts}>
        Shortcuts
      </Button>
      <Button component={Link} to="/graph/duplicates" variant="default" leftSection={<IconCopy size={16} />}>
        Duplicates
      </Button>
    </Group>
  );
}
