import type { Icon } from '@tabler/icons-react';

/** A place the palette can jump to. */
export interface PaletteScreen {
  to: string;
  label: string;
  icon: Icon;
  /** Other words a person may type for it (the names other tools give it). */
  keywords?: readonly string[];
}

/** Tabs that have an address of their own, beside the sections of the navigation. */
export const screenTabs: readonly Omit<PaletteScreen, 'icon'>[] = [
  { to: '/automation/executions', label: 'Automation: executions', keywords: ['runs'] },
  { to: '/automation/triggers', label: 'Automation: triggers' },
  { to: '/automation/tools', label: 'Automation: tools' },
  { to: '/settings?tab=providers', label: 'Settings: model providers', keywords: ['llm', 'embedding'] },
  { to: '/settings?tab=all', label: 'Settings: all settings' },
  { to: '/settings?tab=maintenance', label: 'Settings: maintenance', keywords: ['reset', 'models', 'orphans'] },
  { to: '/operations?tab=backups', label: 'Operations: backups' },
  { to: '/operations?tab=packages', label: 'Operations: export and import', keywords: ['package', 'ccx'] },
  { to: '/operations?tab=registry', label: 'Operations: registry' },
  { to: '/operations?tab=logs', label: 'Operations: logs' },
  { to: '/operations?tab=system', label: 'Operations: system', keywords: ['diagnostics', 'upgrade'] },
];
