import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import {
  IconDatabase,
  IconMessagePlus,
  IconMoon,
  IconPackageImport,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconSun,
  IconUpload,
  type Icon,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { chatEndpoints } from '@rhizome/contracts/api/chats';
import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import { processingEndpoints } from '@rhizome/contracts/api/queue';
import { searchIndexEndpoints } from '@rhizome/contracts/api/search-indexes';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { runWithNotice } from '../../lib/notify-action.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

/** Where the upload command sends a person: the sources screen opens its file chooser for this address. */
export const uploadAddress = '/sources#upload';

export interface PaletteCommand {
  id: string;
  label: string;
  description?: string;
  icon: Icon;
  keywords?: readonly string[];
  run: () => void;
}

/** What the palette can do beside going somewhere; each reports its own outcome. */
export function usePaletteCommands(opened: boolean, onDatabaseSwitched: (name: string) => void): PaletteCommand[] {
  const navigate = useNavigate();
  // Read only while the palette is open: the header should not poll for it on every screen.
  const processing = useEndpoint(processingEndpoints.status, opened ? {} : null);
  const databases = useEndpoint(databaseEndpoints.list, opened ? {} : null);
  const current = useEndpoint(databaseEndpoints.current, opened ? {} : null);
  const createChat = useAction(chatEndpoints.create);
  const pause = useAction(processingEndpoints.pause);
  const resume = useAction(processingEndpoints.resume);
  const rebuild = useAction(searchIndexEndpoints.rebuild);
  const switchTo = useAction(databaseEndpoints.switch);
  const saveScheme = useAction(settingsEndpoints.patch);
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const other = scheme === 'dark' ? 'light' : 'dark';
  const paused = processing.data?.paused ?? false;

  const commands: PaletteCommand[] = [
    {
      id: 'new-chat',
      label: 'New chat',
      icon: IconMessagePlus,
      keywords: ['ask', 'conversation'],
      run: () =>
        void runWithNotice(
          async () => navigate(`/chat/${(await createChat.run({ body: { title: 'New chat' } })).id}`),
          { failure: 'Could not start a chat' },
        ),
    },
    {
      id: 'upload',
      label: 'Upload files',
      description: 'Add documents to the graph',
      icon: IconUpload,
      keywords: ['add', 'document', 'source', 'import'],
      run: () => navigate(uploadAddress),
    },
    {
      id: 'import-package',
      label: 'Import a package',
      description: 'A .ccx export of templates, sources and the graph',
      icon: IconPackageImport,
      keywords: ['ccx', 'restore'],
      run: () => navigate('/operations?tab=packages'),
    },
    {
      id: 'rebuild-index',
      label: 'Rebuild the search index',
      icon: IconRefresh,
      keywords: ['reindex', 'full-text', 'vectors'],
      run: () =>
        void runWithNotice(() => rebuild.run(), {
          success: (result) => ('task_id' in result ? result.message : 'The search index was rebuilt.'),
          failure: 'Could not rebuild the search index',
        }),
    },
    paused
      ? {
          id: 'resume-processing',
          label: 'Resume processing',
          icon: IconPlayerPlay,
          keywords: ['queue', 'start'],
          run: () =>
            void runWithNotice(() => resume.run(), {
              success: 'Processing resumed.',
              failure: 'Could not resume processing',
            }),
        }
      : {
          id: 'pause-processing',
          label: 'Pause processing',
          description: 'No new indexing or extraction starts; running work finishes',
          icon: IconPlayerPause,
          keywords: ['queue', 'stop'],
          run: () =>
            void runWithNotice(() => pause.run({ body: { reason: 'Paused from the command palette' } }), {
              success: 'Processing paused.',
              failure: 'Could not pause processing',
            }),
        },
    {
      id: 'colour-scheme',
      label: other === 'dark' ? 'Switch to dark colours' : 'Switch to light colours',
      icon: other === 'dark' ? IconMoon : IconSun,
      keywords: ['theme', 'colour scheme', 'color', 'mode'],
      run: () => {
        setColorScheme(other);
        void saveScheme.run({ body: { dark_mode: other === 'dark' } }).catch(() => undefined);
      },
    },
    ...(databases.data?.databases ?? [])
      .filter((database) => database.name !== current.data?.current)
      .map((database) => ({
        id: `database:${database.name}`,
        label: `Switch to the database “${database.name}”`,
        icon: IconDatabase,
        keywords: ['database', 'switch'],
        run: () =>
          void runWithNotice(
            async () => {
              await switchTo.run({ body: { name: database.name } });
              onDatabaseSwitched(database.name);
            },
            { success: `Now working in the database “${database.name}”.`, failure: 'Could not switch the database' },
          ),
      })),
  ];
  return commands;
}
