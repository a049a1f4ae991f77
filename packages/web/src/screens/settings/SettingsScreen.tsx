import { SimpleGrid, Stack, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeys } from './ApiKeys.tsx';
import { PasswordChange } from './PasswordChange.tsx';
import { SettingsGroups } from './SettingsGroups.tsx';
import { SettingsMaintenance } from './SettingsMaintenance.tsx';
import { SettingsProviders } from './SettingsProviders.tsx';

const tabs = ['account', 'providers', 'maintenance', 'all'] as const;

export default function SettingsScreen() {
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((candidate) => candidate === params.get('tab')) ?? 'account';
  return (
    <Stack gap="md">
      <PageHeader title="Settings" description="Your account, the model provider, and every setting of the service." />
      <Tabs
        value={tab}
        onChange={(value) => setParams(value && value !== 'account' ? { tab: value } : {})}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="account">Account</Tabs.Tab>
          <Tabs.Tab value="providers">Providers</Tabs.Tab>
          <Tabs.Tab value="maintenance">Maintenance</Tabs.Tab>
          <Tabs.Tab value="all">All settings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="account">
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <ApiKeys />
            <PasswordChange />
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="providers">
          <SettingsProviders />
        </Tabs.Panel>
        <Tabs.Panel value="maintenance">
          <SettingsMaintenance />
        </Tabs.Panel>
        <Tabs.Panel value="all">
          <SettingsGroups />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
