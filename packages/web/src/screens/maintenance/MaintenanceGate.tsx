import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { upgradeEndpoints } from '@rhizome/contracts/api/ops';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api } from '../../lib/api.ts';
import { MaintenanceScreen } from './MaintenanceScreen.tsx';

export type PendingUpgrade = ResponseOf<typeof upgradeEndpoints.pending>;

/**
 * The interface only while the database is up to date (GET /upgrade/pending `ready`); the maintenance
 * screen while migrations wait. Checked on opening and whenever the window comes back into focus. A
 * server that cannot say lets the interface through: its screens show their own errors.
 */
export function MaintenanceGate({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<PendingUpgrade | 'checking' | null>('checking');

  const check = useCallback(async () => {
    try {
      const status = await api.call(upgradeEndpoints.pending);
      setPending(status.ready ? null : status);
    } catch {
      setPending(null);
    }
  }, []);

  useEffect(() => {
    void check();
    const onFocus = () => void check();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [check]);

  if (pending === 'checking')
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (pending) return <MaintenanceScreen pending={pending} onChanged={check} />;
  return children;
}
