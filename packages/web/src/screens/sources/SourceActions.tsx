import { ActionIcon, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconChecks,
  IconDots,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerStop,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { messageOf } from '../../lib/api.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useAction } from '../../lib/data/use-action.ts';

const busyStatuses = new Set<SourceResponseBody['status']>([
  'pending',
  'indexing',
  'vision_pending',
  'extracting',
  'mcp_extracting',
  'extracted',
  'committing',
]);

const listReads = [
  { tag: sourceEndpoints.list.tag, endpoint: sourceEndpoints.list },
  { tag: opsEndpoints.dashboard.tag, endpoint: opsEndpoints.dashboard },
];

/** Everything that can be done to one source; each action reports its own failure. */
export function SourceActions({
  source,
  onDeleted,
  onReview,
  defaultOpened = false,
}: {
  source: SourceResponseBody;
  /** After a delete, for a screen that showed only this source. */
  onDeleted?: () => void;
  onReview: (source: SourceResponseBody) => void;
  defaultOpened?: boolean;
}) {
  const name = source.title ?? source.filename ?? source.id;
  const resume = useAction(sourcePauseEndpoints.resume);
  const pause = useAction(sourcePauseEndpoints.pause);
  const stop = useAction(sourceEndpoints.stopProcessing);
  const reextract = useAction(extractionEndpoints.start);
  // The source's own reads would answer 404 before its page is left.
  const deleteSource = useAction(sourceEndpoints.delete, { refreshes: listReads });
  const run = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not ${what} “${name}”`, message: messageOf(error) });
    }
  };
  const params = { source_id: source.id };
  const busy = busyStatuses.has(source.status);
  const canExtract =
    source.status === 'indexed' ||
    source.status === 'extracted' ||
    source.status === 'committed' ||
    (source.status === 'error' && source.chunk_count > 0);

  const [deleting, { open: askDelete, close: keep }] = useDisclosure();
  const remove = () => {
    keep();
    void run('delete', async () => {
      await deleteSource.run({ params });
      onDeleted?.();
    });
  };

  return (
    <>
      <ConfirmDelete opened={deleting} onKeep={keep} onDelete={remove} title={`Delete “${name}”?`}>
        Its chunks, citations and the entities and relationships only it supports are removed. This cannot be undone.
      </ConfirmDelete>
      <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {source.status === 'awaiting_confirmation' && (
            <Menu.Item leftSection={<IconChecks size={16} />} onClick={() => onReview(source)}>
              Review the domain…
            </Menu.Item>
          )}
          {source.paused ? (
            <Menu.Item
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => void run('resume', () => resume.run({ params }))}
            >
              Resume
            </Menu.Item>
          ) : (
            <Menu.Item
              leftSection={<IconPlayerPause size={16} />}
              disabled={!busy}
              onClick={() => void run('pause', () => pause.run({ params, body: { reason: null } }))}
            >
              Pause
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconPlayerStop size={16} />}
            disabled={!busy}
            onClick={() => void run('stop', () => stop.run({ params }))}
          >
            Stop processing
          </Menu.Item>
          <Menu.Item
            leftSection={<IconRefresh size={16} />}
            disabled={!canExtract}
            onClick={() => void run('re-extract', () => reextract.run({ params, body: { force: true } }))}
          >
            Re-extract
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={askDelete}>
            Delete…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
