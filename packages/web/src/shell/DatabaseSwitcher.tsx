import { useState } from 'react';
import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import { api, messageOf } from '../lib/api.ts';
import { useLoad } from '../lib/use-load.ts';
import { useChanges } from '../lib/changes.tsx';

/** The active database, switchable from the header; every screen reloads after a switch. */
export function DatabaseSwitcher({ onSwitched }: { onSwitched: (name: string) => void }) {
  const databases = useLoad(async () => {
    const [list, current] = await Promise.all([api.call(databaseEndpoints.list), api.call(databaseEndpoints.current)]);
    return { names: list.databases.map((database) => database.name), current: current.current };
  }, []);
  // A switch made elsewhere (the operations screen, another tab) shows here too.
  useChanges((event) => {
    if (event.type === 'database') void databases.reload();
  });
  const [busy, setBusy] = useState(false);

  async function choose(name: string | null) {
    if (!name || name === databases.data?.current) return;
    setBusy(true);
    try {
      await api.call(databaseEndpoints.switch, { body: { name } });
      databases.set((current) => current && { ...current, current: name });
      onSwitched(name);
      notifications.show({ color: 'teal', message: `Now working in the database “${name}”.` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not switch the database', message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Select
      aria-label="Active database"
      data={databases.data?.names ?? []}
      value={databases.data?.current ?? null}
      onChange={choose}
      onDropdownOpen={() => void databases.reload()}
      disabled={busy || !databases.data}
      allowDeselect={false}
      w={{ base: 130, sm: 180 }}
      size="sm"
      comboboxProps={{ withinPortal: true }}
      error={databases.error ?? undefined}
    />
  );
}
