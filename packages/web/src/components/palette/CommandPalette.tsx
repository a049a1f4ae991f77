import { useEffect, useState, type CSSProperties } from 'react';
import { Group, Kbd, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { IconArrowRight, IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { matches } from './matches.ts';
import { screenTabs, type PaletteScreen } from './palette-screens.ts';
import { usePaletteCommands } from './use-palette-commands.ts';
import { usePaletteLookup, usePaletteSearch, type PaletteGroup } from './use-palette-lookup.ts';

/** Typed first, this puts the palette in search mode: passages and entities for the rest of the query. */
const searchPrefix = '?';
/** How long typing pauses before the server is asked. */
const debounceMs = 200;
const listId = 'palette-results';

/**
 * Spotlight selects the first result as a person types; results from the server arrive after that, so the
 * first row is selected again when they do (Enter then opens the best match, not whatever row was first).
 */
function selectFirst(): void {
  const list = document.getElementById(listId);
  list?.querySelector('[data-selected]')?.removeAttribute('data-selected');
  list?.querySelector('[data-action]')?.setAttribute('data-selected', 'true');
}

export const openPalette = () => spotlight.open();

/** A selected row's description at full strength: Spotlight dims it below contrast on the primary colour. */
const paletteStyles = { action: { '--action-description-opacity': '1' } as CSSProperties };

/**
 * Ctrl/Cmd+K from anywhere: jump to a screen, an entity, source, template, workflow or chat by name, run a
 * command, or (`?` first) search passages and entities, whose results open in place.
 */
export function CommandPalette({
  screens,
  onDatabaseSwitched,
}: {
  screens: readonly PaletteScreen[];
  onDatabaseSwitched: (name: string) => void;
}) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState(false);
  const [settled] = useDebouncedValue(query.trim(), debounceMs);
  const searching = query.trimStart().startsWith(searchPrefix);
  const searchText = settled.startsWith(searchPrefix) ? settled.slice(searchPrefix.length).trim() : '';
  const commands = usePaletteCommands(opened, onDatabaseSwitched);
  const lookup = usePaletteLookup(opened && !searching ? settled : null);
  const search = usePaletteSearch(opened && searching && searchText ? searchText : null);

  const typed = query.trim();
  const shownScreens = searching
    ? []
    : [...screens, ...screenTabs.map((tab) => ({ ...tab, icon: IconArrowRight }))].filter((screen) =>
        matches(typed, screen.label, screen.keywords),
      );
  const shownCommands = searching
    ? []
    : commands.filter((command) => matches(typed, command.label, command.keywords ?? []));
  const found: PaletteGroup[] = searching ? search.groups : lookup.groups;
  const loading = searching ? search.loading : lookup.loading || settled !== typed;
  const nothing = shownScreens.length === 0 && shownCommands.length === 0 && found.length === 0;
  const shown = found.map((group) => group.hits.map((hit) => hit.id).join(',')).join(';');
  useEffect(() => {
    if (opened && shown) selectFirst();
  }, [opened, shown]);

  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      // Ctrl+K opens the palette from a text field too, as it does in most tools.
      tagsToIgnore={[]}
      title="Command palette"
      classNames={{ header: 'visually-hidden' }}
      styles={paletteStyles}
      onSpotlightOpen={() => setOpened(true)}
      onSpotlightClose={() => setOpened(false)}
      scrollable
      maxHeight="min(480px, calc(100dvh - 220px))"
    >
      <Spotlight.Search
        aria-label="Go to, run or search"
        placeholder="Jump to, run, or ? to search"
        leftSection={<IconSearch size={18} stroke={1.6} />}
        rightSection={loading && typed ? <Loader size="xs" aria-label="Searching" /> : null}
      />
      <Spotlight.ActionsList id={listId} aria-label="Results">
        {shownScreens.length > 0 && (
          <Spotlight.ActionsGroup label="Go to">
            {shownScreens.map(({ to, label, icon: Icon }) => (
              <Spotlight.Action
                key={to}
                label={label}
                leftSection={<Icon size={18} stroke={1.6} />}
                onClick={() => navigate(to)}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {shownCommands.length > 0 && (
          <Spotlight.ActionsGroup label="Commands">
            {shownCommands.map(({ id, label, description, icon: Icon, run }) => (
              <Spotlight.Action
                key={id}
                label={label}
                description={description}
                leftSection={<Icon size={18} stroke={1.6} />}
                onClick={run}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {found.map((group) => (
          <Spotlight.ActionsGroup key={group.label} label={group.label}>
            {group.hits.map(({ id, label, description, icon: Icon, to }) => (
              <Spotlight.Action
                key={id}
                label={label}
                description={description}
                leftSection={<Icon size={18} stroke={1.6} />}
                onClick={() => navigate(to)}
              />
            ))}
          </Spotlight.ActionsGroup>
        ))}
        {!searching && typed.length >= 2 && (
          <Spotlight.Action
            label={`Search passages and entities for “${typed}”`}
            leftSection={<IconSearch size={18} stroke={1.6} />}
            closeSpotlightOnTrigger={false}
            onClick={() => setQuery(`${searchPrefix} ${typed}`)}
          />
        )}
        {nothing && !loading && (
          <Spotlight.Empty>
            {searching && !searchText ? 'Type what to search for after the ?' : 'Nothing found.'}
          </Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
      <Group px="md" py={8} gap="md" className="palette-footer">
        <Text fz="xs" c="dimmed">
          <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> choose · <Kbd size="xs">Enter</Kbd> open ·{' '}
          <Kbd size="xs">?</Kbd> search · <Kbd size="xs">Esc</Kbd> close
        </Text>
      </Group>
    </Spotlight.Root>
  );
}
