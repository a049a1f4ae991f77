import { useState } from 'react';
import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import { messageOf } from '../lib/api.ts';
import { useAction } from '../lib/data/use-action.ts';
import { useEndpoint } from '../lib/data/use-endpoint.ts';

/** The active database, switchable from the header; every screen reloads after a switch. */
export function DatabaseSwitcher({ onSwitched }: { onSwitched: (name: string) => void }) {
  // A switch made elsewhere (the operations screen, another tab) shows here too: a database event refreshes both.
  const list = useEndpoint(databaseEndpoints.list);
  const active = useEndpoint(databaseEndpoints.current);
  const switchTo = useAction(databaseEndpoints.switch);
  const databases = {
    data:
      list.data && active.data
        ? { names: list.data.databases.map((database) => database.name), current: active.data.current }
        : undefined,
    error: list.error ?? active.error,
    reload: () => Promise.all([list.reload(), active.reload()]),
  };
  const [busy, setBusy] = useState(false);

  async function choose(name: string | null) {
    if (!name || name === databases.data?.current) return;
    setBusy(true);
    try {
      await switchTo.run({ body: { name } });
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
