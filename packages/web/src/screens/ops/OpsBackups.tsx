import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDatabaseExport, IconDownload, IconRestore, IconTrash } from '@tabler/icons-react';
import { backupEndpoints } from '@rhizome/contracts/api/backup';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api, messageOf } from '../../lib/api.ts';
import { formatBytes, formatDate } from '../../lib/format.ts';
import { runWithNotice } from '../../lib/notify-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

type Restored = ResponseOf<typeof backupEndpoints.restore>;

/** Backups of the active database: take one now, download, restore (after a safety copy), delete. */
export function OpsBackups() {
  const backups = useEndpoint(backupEndpoints.list, { query: { page_size: 200 } });
  const createBackup = useAction(backupEndpoints.create);
  const restoreBackup = useAction(backupEndpoints.restore);
  const deleteBackup = useAction(backupEndpoints.remove);
  const [creating, setCreating] = useState(false);
  const [restoring, setRestoring] = useState<string | null>(null);
  const [restoreBusy, setRestoreBusy] = useState(false);
  const [restored, setRestored] = useState<Restored | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  async function create() {
    setCreating(true);
    await runWithNotice(() => createBackup.run(), {
      success: (backup) => `Backup ${backup.filename} taken (${formatBytes(backup.size)}).`,
      failure: 'Could not take a backup',
    });
    setCreating(false);
  }

  async function restore() {
    if (!restoring) return;
    setRestoreBusy(true);
    try {
      setRestored(await restoreBackup.run({ params: { filename: restoring } }));
      setRestoring(null);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not restore the backup', message: messageOf(error) });
    } finally {
      setRestoreBusy(false);
    }
  }

  async function remove() {
    if (!removing) return;
    const filename = removing;
    setRemoving(null);
    await runWithNotice(() => deleteBackup.run({ params: { filename } }), { failure: 'Could not delete the backup' });
  }

  const list = backups.data?.data ?? [];
  return (
    <Card withBorder radius="md">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={2} fz="md">
            Backups
          </Title>
          <Text fz="sm" c="dimmed">
            Copies of the active database. The schedule is under Settings → All settings → Scheduled backups.
          </Text>
        </div>
        <Button leftSection={<IconDatabaseExport size={16} />} loading={creating} onClick={() => void create()}>
          Back up now
        </Button>
      </Group>
      {restored && (
        <Alert
          color="teal"
          title={`Restored from ${restored.restored_from}`}
          role="status"
          withCloseButton
          onClose={() => setRestored(null)}
          mb="sm"
        >
          <Text fz="sm">
            The database as it was just before is kept as the safety copy{' '}
            <strong>{restored.safety_backup.filename}</strong>: restore it to undo. Search indexes are being rebuilt in
            the background.
          </Text>
        </Alert>
      )}
      {backups.error && <ErrorNotice message={backups.error} onRetry={() => void backups.reload()} />}
      {backups.data && list.length === 0 && (
        <Text fz="sm" c="dimmed">
          No backups of this database yet.
        </Text>
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th visibleFrom="sm">Kind</Table.Th>
                <Table.Th visibleFrom="sm">Size</Table.Th>
                <Table.Th visibleFrom="sm">Taken</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((backup) => (
                <Table.Tr key={backup.filename}>
                  <Table.Td>
                    <Text fz="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {backup.filename}
                    </Text>
                    <Text fz="xs" c="dimmed" hiddenFrom="sm">
                      {backup.kind === 'safety' ? 'Safety copy' : 'Backup'} · {formatBytes(backup.size)} ·{' '}
                      {formatDate(backup.created_at)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Badge variant="light" color={backup.kind === 'safety' ? 'yellow' : 'gray'} size="sm">
                      {backup.kind === 'safety' ? 'Safety copy' : 'Backup'}
                    </Badge>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{formatBytes(backup.size)}</Table.Td>
                  <Table.Td visibleFrom="sm">{formatDate(backup.created_at)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end">
                      <Button
                        component="a"
                        size="compact-sm"
                        variant="default"
                        leftSection={<IconDownload size={14} />}
                        href={api.url(backupEndpoints.download, { params: { filename: backup.filename } })}
                        download={backup.filename}
                        aria-label={`Download ${backup.filename}`}
                      >
                        Download
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconRestore size={14} />}
                        onClick={() => setRestoring(backup.filename)}
                        aria-label={`Restore ${backup.filename}`}
                      >
                        Restore
                      </Button>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => setRemoving(backup.filename)}
                        aria-label={`Delete ${backup.filename}`}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {(backups.data?.pagination.total ?? 0) > list.length && (
        <Text fz="xs" c="dimmed" mt="xs">
          Showing the newest {list.length} of {backups.data?.pagination.total}.
        </Text>
      )}
      <Modal opened={restoring !== null} onClose={() => setRestoring(null)} title="Restore this backup?">
        <Text fz="sm">
          The active database is replaced by{' '}
          <Text span ff="monospace" fz="sm">
            {restoring}
          </Text>
          . Everything changed since then is undone.
        </Text>
        <Text fz="sm" mt="xs">
          A safety copy of the database as it is now is taken first, so you can go back.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setRestoring(null)}>
            Cancel
          </Button>
          <Button color="orange" loading={restoreBusy} onClick={() => void restore()}>
            Restore
          </Button>
        </Group>
      </Modal>
      <ConfirmDelete
        opened={removing !== null}
        onKeep={() => setRemoving(null)}
        onDelete={() => void remove()}
        title="Delete this backup?"
      >
        <Text fz="sm" ff="monospace">
          {removing}
        </Text>
      </ConfirmDelete>
    </Card>
  );
}
