import { useCallback, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSearch, IconUpload } from '@tabler/icons-react';
import { registryEndpoints } from '@rhizome/contracts/api/registry';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { requestErrorOf } from '@rhizome/client';
import { api, messageOf } from '../../lib/api.ts';
import { countOf, humanise } from '../../lib/format.ts';
import { sentenceCase } from '../../lib/sentence-case.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { OpsImportReport, type ImportReport } from './OpsImportReport.tsx';
import { OpsRegistrySignIn } from './OpsRegistrySignIn.tsx';
import { OpsTaskProgress } from './OpsTaskProgress.tsx';
import { useTask } from './use-task.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

type Found = ResponseOf<typeof registryEndpoints.search>;
type PackageType = 'FULL' | 'TEMPLATES' | 'KNOWLEDGE' | 'WORKFLOWS' | 'MIXED';
const packageTypes: PackageType[] = ['FULL', 'TEMPLATES', 'KNOWLEDGE', 'WORKFLOWS', 'MIXED'];

/** The package registry: sign in with a device code, search and import packages, publish one. */
export function OpsRegistry() {
  const logout = useAction(registryEndpoints.logout);
  const status = useEndpoint(registryEndpoints.status);
  const reloadStatus = useCallback(() => void status.reload(), [status.reload]);

  async function signOut() {
    try {
      await logout.run();
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not sign out of the registry', message: messageOf(error) });
    }
  }

  return (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Title order={2} fz="md">
          Registry account
        </Title>
        {status.error && <ErrorNotice message={status.error} onRetry={reloadStatus} />}
        {status.data?.authenticated ? (
          <Group justify="space-between" mt="xs">
            <Text fz="sm">
              Signed in as <strong>{status.data.username ?? 'unknown'}</strong>
              {status.data.registry_url ? ` at ${status.data.registry_url}` : ''}.
            </Text>
            <Button variant="default" onClick={() => void signOut()}>
              Sign out of the registry
            </Button>
          </Group>
        ) : status.data ? (
          <Stack gap="xs" mt="xs">
            <Text fz="sm" c="dimmed">
              Searching public packages works without an account; publishing needs one.
            </Text>
            <OpsRegistrySignIn onSignedIn={reloadStatus} />
          </Stack>
        ) : null}
      </Card>
      <SearchCard />
      <PublishCard signedIn={status.data?.authenticated === true} />
    </Stack>
  );
}

function SearchCard() {
  const startImport = useAction(registryEndpoints.import);
  const [query, setQuery] = useState('');
  const [type, setType] = useState<PackageType | null>(null);
  const [found, setFound] = useState<Found | null>(null);
  const [searching, setSearching] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [importing, setImporting] = useState<{ name: string; taskId: string } | null>(null);
  const task = useTask(importing?.taskId ?? null);

  async function search(event: FormEvent) {
    event.preventDefault();
    setSearching(true);
    setFailure(null);
    try {
      setFound(
        await api.call(registryEndpoints.search, { query: { query: query.trim(), package_type: type, limit: 50 } }),
      );
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setSearching(false);
    }
  }

  async function importPackage(owner: string, name: string) {
    try {
      const queued = await startImport.run({ body: { owner_username: owner, repo_name: name } });
      setImporting({ name: `${owner}/${name}`, taskId: queued.task_id });
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not import ${owner}/${name}`, message: messageOf(error) });
    }
  }

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md" mb="xs">
        Find packages
      </Title>
      <form onSubmit={search}>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Search the registry"
            placeholder="e.g. medicine, climate"
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            leftSection={<IconSearch size={16} />}
            flex={1}
            miw={200}
          />
          <Select
            label="Kind"
            placeholder="Any kind"
            data={packageTypes.map((value) => ({
              value,
              label: sentenceCase(value),
            }))}
            value={type}
            onChange={(value) => setType(value as PackageType | null)}
            clearable
            w={150}
            comboboxProps={{ withinPortal: true }}
          />
          <Button type="submit" loading={searching}>
            Search
          </Button>
        </Group>
      </form>
      {failure && (
        <Alert color="red" mt="sm" role="alert">
          {failure}
        </Alert>
      )}
      {found && found.packages.length === 0 && (
        <Text fz="sm" c="dimmed" mt="sm">
          No package matches.
        </Text>
      )}
      {found && found.packages.length > 0 && (
        <Table.ScrollContainer minWidth={300} mt="sm">
          <Table fz="sm" verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Package</Table.Th>
                <Table.Th visibleFrom="sm">Kind</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  Stars
                </Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  Downloads
                </Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Import</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {found.packages.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <Text fz="sm" fw={500}>
                      {item.owner_username}/{item.name}
                    </Text>
                    <Text fz="xs" c="dimmed" lineClamp={2}>
                      {item.description}
                    </Text>
                    <Text fz="xs" c="dimmed" hiddenFrom="sm">
                      {humanise(item.package_type)} · {countOf(item.star_count, 'star')} ·{' '}
                      {countOf(item.download_count, 'download')}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Badge variant="light" color="gray" size="sm">
                      {humanise(item.package_type)}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {item.star_count.toLocaleString()}
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {item.download_count.toLocaleString()}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="light"
                      onClick={() => void importPackage(item.owner_username, item.name)}
                      aria-label={`Import ${item.owner_username}/${item.name}`}
                    >
                      Import
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {found && found.total > found.packages.length && (
        <Text fz="xs" c="dimmed" mt={4}>
          Showing {found.packages.length.toLocaleString()} of {countOf(found.total, 'package')}: narrow the search to
          see others.
        </Text>
      )}
      {importing && (
        <div style={{ marginTop: 16 }}>
          <OpsTaskProgress state={task} label={`Importing ${importing.name}`} />
        </div>
      )}
      {importing && task.done && task.result !== undefined && (
        <div style={{ marginTop: 16 }}>
          <OpsImportReport report={task.result as ImportReport} />
        </div>
      )}
    </Card>
  );
}

function PublishCard({ signedIn }: { signedIn: boolean }) {
  const [file, setFile] = useState<File | null>(null);
  const [isPublic, setPublic] = useState(true);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [published, setPublished] = useState<ResponseOf<typeof registryEndpoints.upload> | null>(null);

  async function publish() {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    try {
      // The options travel in the query, which the client's upload does not take: the same request by hand.
      const url = api.url(registryEndpoints.upload, { query: { public: isPublic, message: message.trim() || null } });
      const form = new FormData();
      form.append('file', file, file.name);
      const response = await fetch(url, { method: 'POST', body: form, credentials: 'same-origin' });
      if (!response.ok) throw await requestErrorOf(response);
      setPublished((await response.json()) as ResponseOf<typeof registryEndpoints.upload>);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Publish a package
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        {signedIn ? 'Upload a .ccx package (export one under Export and import).' : 'Sign in to the registry first.'}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <FileInput
          label="Package"
          placeholder="Choose a .ccx file"
          accept=".ccx,.zip,application/zip"
          value={file}
          onChange={setFile}
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the file' }}
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          disabled={!signedIn}
        />
        <TextInput
          label="Version note"
          placeholder="What changed (optional)"
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
          maxLength={2000}
          disabled={!signedIn}
        />
      </SimpleGrid>
      <Group justify="space-between" mt="sm">
        <Switch
          label="Public"
          checked={isPublic}
          onChange={(event) => setPublic(event.currentTarget.checked)}
          disabled={!signedIn}
        />
        <Button
          leftSection={<IconUpload size={16} />}
          onClick={() => void publish()}
          loading={busy}
          disabled={!signedIn || !file}
        >
          Publish
        </Button>
      </Group>
      {failure && (
        <Alert color="red" mt="sm" role="alert">
          {failure}
        </Alert>
      )}
      {published && (
        <Alert color="teal" mt="sm" role="status" title="Published">
          {published.owner_username}/{published.name} · {countOf(published.version_count, 'version')}
        </Alert>
      )}
    </Card>
  );
}
