import { ActionIcon, Button, Group, Menu, Modal, Text } from '@mantine/core';
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
import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';

const busyStatuses = new Set<SourceResponseBody['status']>([
  'pending',
  'indexing',
  'vision_pending',
  'extracting',
  'mcp_extracting',
  'extracted',
  'committing',
]);

/** Everything that can be done to one source; each action reports its own failure. */
export function SourceActions({
  source,
  onChanged,
  onDeleted,
  onReview,
  defaultOpened = false,
}: {
  source: SourceResponseBody;
  onChanged: () => void;
  onDeleted: (id: string) => void;
  onReview: (source: SourceResponseBody) => void;
  defaultOpened?: boolean;
}) {
  const name = source.title ?? source.filename ?? source.id;
  const run = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
      onChanged();
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
      await api.call(sourceEndpoints.delete, { params });
      onDeleted(source.id);
    });
  };

  return (
    <>
      <Modal opened={deleting} onClose={keep} title={`Delete “${name}”?`}>
        <Text fz="sm">
          Its chunks, citations and the entities and relationships only it supports are removed. This cannot be undone.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={keep}>
            Keep
          </Button>
          <Button color="red" onClick={remove}>
            Delete
          </Button>
        </Group>
      </Modal>
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
              onClick={() => void run('resume', () => api.call(sourcePauseEndpoints.resume, { params }))}
            >
              Resume
            </Menu.Item>
          ) : (
            <Menu.Item
              leftSection={<IconPlayerPause size={16} />}
              disabled={!busy}
              onClick={() =>
                void run('pause', () => api.call(sourcePauseEndpoints.pause, { params, body: { reason: null } }))
              }
            >
              Pause
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconPlayerStop size={16} />}
            disabled={!busy}
            onClick={() => void run('stop', () => api.call(sourceEndpoints.stopProcessing, { params }))}
          >
            Stop processing
          </Menu.Item>
          <Menu.Item
            leftSection={<IconRefresh size={16} />}
            disabled={!canExtract}
            onClick={() =>
              void run('re-extract', () => api.call(extractionEndpoints.start, { params, body: { force: true } }))
            }
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
