import { useState } from 'react';
import { Alert, Button, Card, Group, List, Select, SimpleGrid, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { opsEndpoints, upgradeEndpoints } from '@rhizome/contracts/api/ops';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { logLevelNames } from '@rhizome/contracts/settings';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api, messageOf } from '../../lib/api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** The log level, the diagnostics bundle for a bug report, and schema upgrades of the active database. */
export function OpsSystem() {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <Upgrades />
      <Card withBorder radius="md">
        <Title order={2} fz="md">
          Diagnostics
        </Title>
        <Text fz="sm" c="dimmed" mb="sm">
          A ZIP of system information, settings (secrets removed), database statistics, logs and queue status, to attach
          to a bug report.
        </Text>
        <Button
          component="a"
          href={api.url(opsEndpoints.diagnostics)}
          download
          leftSection={<IconDownload size={16} />}
          variant="light"
        >
          Download diagnostics
        </Button>
        <LogLevel />
      </Card>
    </SimpleGrid>
  );
}

function LogLevel() {
  const level = useEndpoint(settingsEndpoints.getLogLevel);
  const setLogLevel = useAction(settingsEndpoints.setLogLevel);
  async function change(next: string | null) {
    if (!next || next === level.data?.level) return;
    try {
      const answer = await setLogLevel.run({
        body: { level: next as (typeof logLevelNames)[number] },
      });
      notifications.show({ color: 'teal', message: answer.message });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change the level', message: messageOf(error) });
    }
  }
  return (
    <Select
      mt="lg"
      label="Logging level"
      description="Applies to every service at once, no restart needed"
      data={[...logLevelNames]}
      value={level.data?.level ?? null}
      onChange={(value) => void change(value)}
      allowDeselect={false}
      disabled={!level.data}
      error={level.error ?? undefined}
      maw={260}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function Upgrades() {
  const pending = useEndpoint(upgradeEndpoints.pending);
  const applyUpgrades = useAction(upgradeEndpoints.apply);
  const rollBack = useAction(upgradeEndpoints.rollback);
  const [busy, setBusy] = useState<'apply' | 'rollback' | null>(null);
  const [outcome, setOutcome] = useState<{ color: string; text: string } | null>(null);

  async function apply() {
    setBusy('apply');
    try {
      const result: ResponseOf<typeof upgradeEndpoints.apply> = await applyUpgrades.run();
      setOutcome({
        color: 'teal',
        text: result.applied.length
          ? `Applied ${result.applied.join(', ')}.${result.backup_path ? ` A backup was taken first: ${result.backup_path}.` : ''}`
          : 'Nothing to apply: the database is up to date.',
      });
    } catch (error) {
      setOutcome({ color: 'red', text: messageOf(error) });
    } finally {
      setBusy(null);
    }
  }

  async function rollback() {
    setBusy('rollback');
    try {
      const result = await rollBack.run();
      setOutcome({ color: 'teal', text: `Restored from ${result.restored_from}.` });
    } catch (error) {
      setOutcome({ color: 'red', text: messageOf(error) });
    } finally {
      setBusy(null);
    }
  }

  const data = pending.data;
  const waiting = data ? data.blocked_on.length > 0 || !data.ready : false;
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Upgrades
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        Changes to the database structure that a new version brings. A backup is taken before they are applied.
      </Text>
      {pending.error && <ErrorNotice message={pending.error} onRetry={() => void pending.reload()} />}
      {data && (
        <>
          <Alert color={waiting ? 'yellow' : 'teal'} role="status">
            {data.message}
          </Alert>
          {data.blocked_on.length > 0 && (
            <List size="sm" mt="xs">
              {data.blocked_on.map((item, index) => (
                <List.Item key={index}>
                  {String(item.revision ?? item.id ?? item.message ?? JSON.stringify(item))}
                </List.Item>
              ))}
            </List>
          )}
          {data.data_changing && (
            <Text fz="sm" mt="xs">
              These upgrades change existing data.
            </Text>
          )}
          {data.last_applied.length > 0 && (
            <Text fz="xs" c="dimmed" mt="xs">
              Applied at start-up: {data.last_applied.join(', ')}
            </Text>
          )}
          {data.last_backup && (
            <Text fz="xs" c="dimmed">
              Last pre-upgrade backup: {data.last_backup}
            </Text>
          )}
        </>
      )}
      {outcome && (
        <Alert color={outcome.color} mt="sm" role="status" withCloseButton onClose={() => setOutcome(null)}>
          {outcome.text}
        </Alert>
      )}
      <Group mt="md" gap="xs">
        <Button onClick={() => void apply()} loading={busy === 'apply'} disabled={!waiting}>
          Apply pending upgrades
        </Button>
        <Button variant="default" onClick={() => void rollback()} loading={busy === 'rollback'}>
          Roll back the last upgrade
        </Button>
      </Group>
    </Card>
  );
}
