import { ActionIcon, Button, Kbd } from '@mantine/core';
import { useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { openPalette } from './CommandPalette.tsx';

/** The header's way into the palette, showing its shortcut; an icon alone on a phone. */
export function PaletteButton() {
  const os = useOs();
  const shortcut = os === 'macos' || os === 'ios' ? '⌘K' : 'Ctrl+K';
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconSearch size={16} stroke={1.7} />}
        rightSection={<Kbd size="xs">{shortcut}</Kbd>}
        onClick={openPalette}
        visibleFrom="md"
        aria-keyshortcuts="Control+K Meta+K"
        fw={400}
        c="dimmed"
      >
        Search or jump to…
      </Button>
      <ActionIcon
        variant="default"
        size="lg"
        onClick={openPalette}
        hiddenFrom="md"
        aria-label={`Search or jump to… (${shortcut})`}
        aria-keyshortcuts="Control+K Meta+K"
      >
        <IconSearch size={18} stroke={1.7} />
      </ActionIcon>
    </>
  );
}
