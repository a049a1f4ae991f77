import { SimpleGrid, Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeys } from './ApiKeys.tsx';
import { PasswordChange } from './PasswordChange.tsx';

export default function SettingsScreen() {
  return (
    <Stack gap="md">
      <PageHeader title="Settings" description="Your account and the keys scripts use to reach the API." />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ApiKeys />
        <PasswordChange />
      </SimpleGrid>
    </Stack>
  );
}
