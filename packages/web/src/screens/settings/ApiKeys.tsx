import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconTrash } from '@tabler/icons-react';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** API keys: create one (its secret is shown once, with a copy button), see when each was used, revoke. */
export function ApiKeys() {
  const keys = useEndpoint(authEndpoints.listKeys);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const createKey = useAction(authEndpoints.createKey);
  const revokeKey = useAction(authEndpoints.revokeKey);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const key = await createKey.run({ body: { name: name.trim() } });
      setCreated({ name: key.name, key: key.key });
      setName('');
    } catch (failure) {
      setError(failure instanceof RequestError ? (failure.issueFor('name') ?? failure.message) : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    const { id, name: keyName } = revoking;
    setRevoking(null);
    try {
      await revokeKey.run({ params: { key_id: id } });
      notifications.show({ color: 'teal', message: `The key “${keyName}” is revoked.` });
    } catch (failure) {
      notifications.show({ color: 'red', title: 'Could not revoke the key', message: messageOf(failure) });
    }
  }

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        API keys
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        Scripts send a key as <Code>Authorization: Bearer …</Code>.
      </Text>
      <form onSubmit={create}>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            flex={1}
            aria-label="Name of the new key"
            placeholder="Name, e.g. laptop backup script"
            value={name}
            maxLength={64}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error}
          />
          <Button type="submit" loading={busy} disabled={!name.trim()}>
            Create key
          </Button>
        </Group>
      </form>
      {created && (
        <Alert
          color="teal"
          mt="md"
          title={`Key “${created.name}” created`}
          withCloseButton
          onClose={() => setCreated(null)}
          role="status"
        >
          <Text fz="sm" mb={6}>
            Copy it now: it is never shown again.
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code
              block
              style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="new-api-key"
            >
              {created.key}
            </Code>
            <CopyButton value={created.key}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'}>
                  <ActionIcon variant="light" onClick={copy} aria-label="Copy the key">
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      {keys.error && <ErrorNotice message={keys.error} onRetry={() => void keys.reload()} />}
      {keys.data && keys.data.length === 0 && (
        <Text fz="sm" c="dimmed" mt="md">
          No keys yet.
        </Text>
      )}
      {keys.data && keys.data.length > 0 && (
        <Table.ScrollContainer minWidth={300} mt="md">
          <Table verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th visibleFrom="sm">Created</Table.Th>
                <Table.Th visibleFrom="sm">Last used</Table.Th>
                <Table.Th w={40}>
                  <span className="visually-hidden">Revoke</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>
                    {key.name}
                    <Text fz="xs" c="dimmed" hiddenFrom="sm">
                      Created {formatDate(key.created_at)} ·{' '}
                      {key.last_used_at ? `last used ${formatDate(key.last_used_at)}` : 'never used'}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{formatDate(key.created_at)}</Table.Td>
                  <Table.Td visibleFrom="sm">{key.last_used_at ? formatDate(key.last_used_at) : 'Never'}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => setRevoking({ id: key.id, name: key.name })}
                      aria-label={`Revoke ${key.name}`}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDelete
        opened={revoking !== null}
        onKeep={() => setRevoking(null)}
        onDelete={() => void revoke()}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        deleteLabel="Revoke"
      >
        Scripts using this key are refused from now on.
      </ConfirmDelete>
    </Card>
  );
}
