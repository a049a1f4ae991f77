import { useState } from 'react';
import { Alert, Button, Code, Group, List, Text } from '@mantine/core';
import { IconArrowBackUp, IconDatabaseImport } from '@tabler/icons-react';
import { upgradeEndpoints } from '@rhizome/contracts/api/ops';
import { AuthLayout } from '../../auth/AuthLayout.tsx';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import type { PendingUpgrade } from './MaintenanceGate.tsx';

interface Props {
  pending: PendingUpgrade;
  /** Asks the server again after an apply or a rollback: back to the interface once it is up to date. */
  onChanged: () => Promise<void>;
}

const revisionOf = (entry: Record<string, unknown>) => String(entry.name ?? entry.revision ?? '');

/** While migrations wait: which, the backup to fall back on, and Apply or Roll back. */
export function MaintenanceScreen({ pending, onChanged }: Props) {
  const [busy, setBusy] = useState<'apply' | 'rollback' | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);

  const act = async (what: 'apply' | 'rollback') => {
    setBusy(what);
    setOutcome(null);
    try {
      if (what === 'apply') {
        const result = await api.call(upgradeEndpoints.apply);
        setOutcome({ ok: true, message: `Applied ${countOf(result.applied.length, 'migration')}.` });
      } else {
        const result = await api.call(upgradeEndpoints.rollback);
        setOutcome({ ok: true, message: `Restored the copy saved before the upgrade (${result.restored_from}).` });
      }
      await onChanged();
    } catch (error) {
      setOutcome({ ok: false, message: messageOf(error) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <AuthLayout
      title="The database needs an upgrade"
      subtitle="This version of Rhizome changes how the database is stored. Until the upgrade is applied the interface stays here, so nothing is written to a database in the old form."
    >
      <div>
        <Text fz="sm" fw={600}>
          {pending.message}
        </Text>
        <List size="sm" mt={4} aria-label="Pending migrations">
          {pending.blocked_on.map((entry) => (
            <List.Item key={revisionOf(entry)}>
              <Code>{revisionOf(entry)}</Code>
            </List.Item>
          ))}
        </List>
      </div>
      <Text fz="sm" c="dimmed">
        {pending.last_backup
          ? `A copy from before the last upgrade is kept (${pending.last_backup}); rolling back restores it.`
          : 'Applying saves a copy of the database first, so the upgrade can be rolled back.'}
      </Text>
      {outcome && (
        <Alert color={outcome.ok ? 'teal' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </Alert>
      )}
      <Group gap="xs">
        <Button
          leftSection={<IconDatabaseImport size={16} />}
          loading={busy === 'apply'}
          disabled={busy !== null}
          onClick={() => void act('apply')}
        >
          Upgrade now
        </Button>
        <Button
          variant="default"
          leftSection={<IconArrowBackUp size={16} />}
          loading={busy === 'rollback'}
          disabled={busy !== null || !pending.last_backup}
          onClick={() => void act('rollback')}
        >
          Roll back
        </Button>
      </Group>
    </AuthLayout>
  );
}
