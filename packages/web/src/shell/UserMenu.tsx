import { Button, Menu } from '@mantine/core';
import { IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { useSession } from '../auth/SessionGate.tsx';
import { api } from '../lib/api.ts';

export function UserMenu() {
  const { username, ended } = useSession();
  const navigate = useNavigate();
  async function signOut() {
    await api.call(authEndpoints.logout).catch(() => undefined);
    ended('You have signed out.');
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconUserCircle size={18} />} px="xs" aria-label={`Account ${username}`}>
          <span className="hide-narrow">{username}</span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconKey size={16} />} onClick={() => navigate('/settings')}>
          Password and API keys
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
