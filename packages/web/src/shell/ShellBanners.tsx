import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPause, IconRobot } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { processingEndpoints } from '@rhizome/contracts/api/queue';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import type { Settings } from '@rhizome/contracts/settings';
import { messageOf } from '../lib/api.ts';
import { useAction } from '../lib/data/use-action.ts';
import { useEndpoint } from '../lib/data/use-endpoint.ts';
import { useDismissed } from './use-dismissed.ts';

/** The health monitor may pause processing at any time: its banner should not wait for a reload. */
const processingCheckMs = 30_000;

/** What the operator should know on every screen: processing paused, and no real model configured. Each closes for the session. */
export function ShellBanners() {
  const processing = useEndpoint(processingEndpoints.status, undefined, { refreshMs: processingCheckMs });
  const settings = useEndpoint(settingsEndpoints.get);
  const resume = useAction(processingEndpoints.resume);
  const [pausedClosed, closePaused] = useDismissed('processing-paused');
  const [builtinClosed, closeBuiltin] = useDismissed('builtin-model');
  const paused = processing.data?.paused === true && !pausedClosed;
  const provider = (settings.data as Partial<Settings> | undefined)?.llm?.chat_provider;
  const builtin = provider === 'builtin' && !builtinClosed;
  if (!paused && !builtin) return null;

  const resumeNow = async () => {
    try {
      await resume.run();
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not resume processing', message: messageOf(error) });
    }
  };
  return (
    <Stack gap="xs" mb="md">
      {paused && (
        <Alert
          color="yellow"
          icon={<IconPlayerPause size={18} />}
          title="Processing is paused"
          withCloseButton
          closeButtonLabel="Hide this notice for the session"
          onClose={closePaused}
          role="status"
          data-testid="banner-paused"
        >
          <Group justify="space-between" gap="xs">
            <Text fz="sm">
              No document is indexed and no entity extracted until it resumes
              {processing.data?.reason ? ` (${processing.data.reason})` : ''}.
            </Text>
            <Button size="xs" variant="light" color="yellow" loading={resume.pending} onClick={() => void resumeNow()}>
              Resume
            </Button>
          </Group>
        </Alert>
      )}
      {builtin && (
        <Alert
          color="blue"
          icon={<IconRobot size={18} />}
          title="Only the builtin offline model is set up"
          withCloseButton
          closeButtonLabel="Hide this notice for the session"
          onClose={closeBuiltin}
          role="status"
          data-testid="banner-builtin"
        >
          <Text fz="sm">
            It answers by quoting your passages and finds entities by rules. A model server or a cloud provider writes
            real answers and extracts far more.{' '}
            <Anchor component={Link} to="/settings?tab=providers" fz="sm" c="inherit" fw={600} underline="always">
              Set up a model
            </Anchor>
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
