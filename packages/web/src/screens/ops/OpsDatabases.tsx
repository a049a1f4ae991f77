import { useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import { messageOf } from '../../lib/api.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { formatBytes, formatDate } from '../../lib/format.ts';
import { runWithNotice } from '../../lib/notify-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';

/** The databases on this machine: create one, switch to it, delete one (the server refuses the default and the active one). */
export function OpsDatabases() {
  const list = useEndpoint(databaseEndpoints.list);
  const active = useEndpoint(databaseEndpoints.current);
  const createDatabase = useAction(databaseEndpoints.create);
  const switchDatabase = useAction(databaseEndpoints.switch);
  const deleteDatabase = useAction(databaseEndpoints.remove);
  const databases = {
    data: list.data && active.data ? { list: list.data.databases, current: active.data.current } : undefined,
    error: list.error ?? active.error,
    reload: () => Promise.all([list.reload(), active.reload()]),
  };
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const created = await createDatabase.run({ body: { name: name.trim() } });
      setName('');
      notifications.show({ color: 'teal', message: `The database “${created.name}” is ready.` });
    } catch (error) {
      setCreateError(messageOf(error));
    } finally {
      setCreating(false);
    }
  }

  async function switchTo(target: string) {
    setSwitching(target);
    await runWithNotice(
      async () => {
        await switchDatabase.run({ body: { name: target } });
      },
      { success: `Now working in the database “${target}”.`, failure: 'Could not switch the database' },
    );
    setSwitching(null);
  }

  function askDelete(target: string) {
    setDeleting(target);
    setTyped('');
    setDeleteError(null);
  }

  async function remove() {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deleteDatabase.run({ params: { name: deleting } });
      notifications.show({ color: 'teal', message: `The database “${deleting}” was deleted.` });
      setDeleting(null);
    } catch (error) {
      setDeleteError(messageOf(error));
    } finally {
      setDeleteBusy(false);
    }
  }

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Databases
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        Each database is a separate graph with its own sources, templates and workflows.
      </Text>
      <form onSubmit={create}>
        <TextInput
          label="New database"
          description="Letters, digits, underscores and hyphens"
          placeholder="e.g. research"
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setCreateError(null);
          }}
          error={createError}
          maxLength={64}
          // The button sits beside the box itself, whatever the label, description or error take.
          inputContainer={(input) => (
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <div style={{ flex: 1 }}>{input}</div>
              <Button type="submit" loading={creating} disabled={!name.trim()}>
                Create
              </Button>
            </Group>
          )}
        />
      </form>
      {databases.error && <ErrorNotice message={databases.error} onRetry={() => void databases.reload()} />}
      {databases.data && (
        <Table.ScrollContainer minWidth={300} mt="md">
          <Table verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th visibleFrom="sm">Size</Table.Th>
                <Table.Th visibleFrom="sm">Last changed</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {databases.data.list.map((database) => {
                const active = database.name === databases.data?.current;
                return (
                  <Table.Tr key={database.name}>
                    <Table.Td>
                      <Group gap={6}>
                        <Text fz="sm" fw={500}>
                          {database.name}
                        </Text>
                        {active && (
                          <Badge variant="light" size="sm">
                            Active
                          </Badge>
                        )}
                        {database.name === 'default' && (
                          <Badge variant="light" color="gray" size="sm">
                            Default
                          </Badge>
                        )}
                      </Group>
                      <Text fz="xs" c="dimmed" hiddenFrom="sm">
                        {formatBytes(database.size)} · changed {formatDate(database.last_modified)}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{formatBytes(database.size)}</Table.Td>
                    <Table.Td visibleFrom="sm">{formatDate(database.last_modified)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {!active && (
                          <Button
                            size="compact-sm"
                            variant="light"
                            loading={switching === database.name}
                            onClick={() => void switchTo(database.name)}
                            aria-label={`Switch to ${database.name}`}
                          >
                            Switch
                          </Button>
                        )}
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          onClick={() => askDelete(database.name)}
                          aria-label={`Delete ${database.name}`}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDelete
        opened={deleting !== null}
        onKeep={() => setDeleting(null)}
        onDelete={() => void remove()}
        title={`Delete the database “${deleting ?? ''}”?`}
        keepLabel="Keep it"
        deleteLabel="Delete the database"
        busy={deleteBusy}
        disabled={typed !== deleting}
      >
        <Text fz="sm" mb="sm">
          Its graph, sources, templates and workflows are removed for good. Type its name to confirm.
        </Text>
        <TextInput
          label="Database name"
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          data-autofocus
        />
        {deleteError && (
          <Alert color="red" mt="sm" role="alert" title="The database was not deleted">
            {deleteError}
          </Alert>
        )}
      </ConfirmDelete>
    </Card>
  );
}
