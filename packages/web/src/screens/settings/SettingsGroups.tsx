import { useState } from 'react';
import {
  Box,
  Button,
  Card,
  Grid,
  Group,
  Modal,
  NavLink,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSearchParams } from 'react-router-dom';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { messageOf } from '../../lib/api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { settingGroups } from './settings-fields.ts';
import { SettingsGroupForm } from './SettingsGroupForm.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

const groupId = (key: string) => key || 'general';

/** Every settings group, one at a time, with the reset of everything to the defaults. */
export function SettingsGroups() {
  const settings = useEndpoint(settingsEndpoints.get);
  const [params, setParams] = useSearchParams();
  const chosen = settingGroups.find((group) => groupId(group.key) === params.get('group')) ?? settingGroups[0];
  const [confirming, setConfirming] = useState(false);
  const [resetting, setResetting] = useState(false);
  const resetAll = useAction(settingsEndpoints.reset);

  const choose = (key: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('group', key);
        return next;
      },
      { replace: true },
    );

  async function reset() {
    setResetting(true);
    try {
      await resetAll.run();
      setConfirming(false);
      notifications.show({ color: 'teal', message: 'Every setting is back to its default.' });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not reset the settings', message: messageOf(error) });
    } finally {
      setResetting(false);
    }
  }

  if (settings.error)
    return (
      <ErrorNotice
        title="Could not load the settings"
        message={settings.error}
        onRetry={() => void settings.reload()}
      />
    );
  if (!settings.data) return <Skeleton h={400} radius="md" />;
  return (
    <>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Select
            hiddenFrom="md"
            label="Settings group"
            data={settingGroups.map((group) => ({ value: groupId(group.key), label: group.title }))}
            value={groupId(chosen.key)}
            onChange={(value) => value && choose(value)}
            allowDeselect={false}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          <Box visibleFrom="md" component="nav" aria-label="Settings groups">
            <ScrollArea.Autosize mah="calc(100vh - 220px)" type="auto">
              {settingGroups.map((group) => (
                <NavLink
                  key={groupId(group.key)}
                  component="button"
                  label={group.title}
                  active={group === chosen}
                  aria-current={group === chosen ? 'true' : undefined}
                  onClick={() => choose(groupId(group.key))}
                />
              ))}
            </ScrollArea.Autosize>
          </Box>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="md">
            <SettingsGroupForm group={chosen} settings={settings.data} />
            <Card withBorder radius="md">
              <Group justify="space-between" gap="sm">
                <div>
                  <Title order={2} fz="md">
                    Reset every setting
                  </Title>
                  <Text fz="sm" c="dimmed">
                    All groups go back to their defaults, stored keys included; the active database stays.
                  </Text>
                </div>
                <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                  Reset all settings…
                </Button>
              </Group>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Reset every setting to its default?">
        <Text fz="sm">
          Providers, stored API keys, limits and schedules all return to the defaults. This cannot be undone.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Keep my settings
          </Button>
          <Button color="red" loading={resetting} onClick={() => void reset()}>
            Reset all settings
          </Button>
        </Group>
      </Modal>
    </>
  );
}
