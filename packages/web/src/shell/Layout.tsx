import { useEffect, type ReactNode } from 'react';
import { AppShell, Burger, Group, NavLink, Text, UnstyledButton, useMantineColorScheme } from '@mantine/core';
import { useDisclosure, useReducedMotion } from '@mantine/hooks';
import { IconFiles, IconLayoutDashboard, IconMessages, IconSearch, IconSettings } from '@tabler/icons-react';
import { IconRoute, IconTemplate } from '@tabler/icons-react';
import { IconCircleDot, IconCopy, IconGraph, IconLine } from '@tabler/icons-react';
import { IconListDetails, IconServerCog } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { Logo } from '../components/Logo.tsx';
import { CommandPalette } from '../components/palette/CommandPalette.tsx';
import { PaletteButton } from '../components/palette/PaletteButton.tsx';
import type { PaletteScreen } from '../components/palette/palette-screens.ts';
import { api } from '../lib/api.ts';
import { ColorSchemeMenu } from './ColorSchemeMenu.tsx';
import { DatabaseSwitcher } from './DatabaseSwitcher.tsx';
import { ShellBanners } from './ShellBanners.tsx';
import { hasStoredColorScheme } from './theme.ts';
import { UserMenu } from './UserMenu.tsx';

/** The navigation, which the command palette also offers; a section `under` another is indented below it. */
const sections: (PaletteScreen & { under?: string })[] = [
  { to: '/', label: 'Dashboard', icon: IconLayoutDashboard, keywords: ['home', 'overview'] },
  { to: '/sources', label: 'Sources', icon: IconFiles, keywords: ['documents', 'files'] },
  { to: '/graph', label: 'Graph', icon: IconGraph, keywords: ['canvas'] },
  { to: '/entities', label: 'Entities', icon: IconCircleDot, under: '/graph', keywords: ['nodes'] },
  { to: '/relationships', label: 'Relationships', icon: IconLine, under: '/graph', keywords: ['edges', 'links'] },
  { to: '/graph/duplicates', label: 'Duplicates', icon: IconCopy, under: '/graph', keywords: ['merge'] },
  { to: '/search', label: 'Search', icon: IconSearch },
  { to: '/chat', label: 'Chat', icon: IconMessages, keywords: ['ask'] },
  { to: '/templates', label: 'Templates', icon: IconTemplate, keywords: ['types', 'lexicon'] },
  { to: '/automation', label: 'Automation', icon: IconRoute, keywords: ['workflows', 'automations'] },
  { to: '/settings', label: 'Settings', icon: IconSettings },
  { to: '/queue', label: 'Queue', icon: IconListDetails, keywords: ['tasks', 'queues', 'jobs'] },
  { to: '/operations', label: 'Operations', icon: IconServerCog, keywords: ['databases', 'backups'] },
];

/** Header with the database and account, navigation on the side (a drawer on a phone). */
export function Layout({
  children,
  onDatabaseSwitched,
}: {
  children: ReactNode;
  onDatabaseSwitched: (name: string) => void;
}) {
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const { setColorScheme } = useMantineColorScheme();
  // The shell slides between the phone and desktop layouts; someone who asked for less motion gets the new layout at once.
  const reduceMotion = useReducedMotion();

  useEffect(() => {
    close();
  }, [pathname, close]);
  // Until this browser has a choice of its own, settings.dark_mode decides (and the system when it is off).
  useEffect(() => {
    if (hasStoredColorScheme()) return;
    void api
      .call(settingsEndpoints.get)
      .then((settings) => {
        if (settings.dark_mode === true) setColorScheme('dark');
      })
      .catch(() => undefined);
  }, [setColorScheme]);

  // A section is active on its pages unless one of its subsections is (the graph, not on its duplicates).
  const within = (to: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));
  const active = (to: string) => within(to) && !sections.some((section) => section.under === to && within(section.to));

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
      transitionDuration={reduceMotion ? 0 : 200}
    >
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <UnstyledButton component={Link} to="/" aria-label="Rhizome dashboard">
              <Group gap={8} wrap="nowrap">
                <Logo />
                <Text fw={700} fz="lg" className="hide-narrow">
                  Rhizome
                </Text>
              </Group>
            </UnstyledButton>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <PaletteButton />
            <DatabaseSwitcher onSwitched={onDatabaseSwitched} />
            <ColorSchemeMenu />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {sections.map(({ to, label, icon: Icon, under }) => (
          <NavLink
            key={to}
            component={Link}
            to={to}
            label={label}
            leftSection={<Icon size={under ? 16 : 18} stroke={1.7} />}
            pl={under ? 'xl' : undefined}
            active={active(to)}
            aria-current={active(to) ? 'page' : undefined}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <ShellBanners />
        {children}
      </AppShell.Main>
      <CommandPalette screens={sections} onDatabaseSwitched={onDatabaseSwitched} />
    </AppShell>
  );
}
