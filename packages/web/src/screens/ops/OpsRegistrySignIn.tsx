import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { registryEndpoints } from '@rhizome/contracts/api/registry';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { RequestError } from '@rhizome/client';
import { api, messageOf } from '../../lib/api.ts';

type DeviceCode = ResponseOf<typeof registryEndpoints.device>;

/** Device sign-in: shows the code to enter at the registry's page and waits for the approval. */
export function OpsRegistrySignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [device, setDevice] = useState<DeviceCode | null>(null);
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cancelled = useRef(false);

  useEffect(() => {
    if (!device) return;
    cancelled.current = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const answer = await api.call(registryEndpoints.poll, { body: { device_code: device.device_code } });
        if (cancelled.current) return;
        if (answer.success) {
          setDevice(null);
          notifications.show({ color: 'teal', message: `Signed in to the registry as ${answer.username ?? 'you'}.` });
          onSignedIn();
          return;
        }
      } catch (error) {
        if (cancelled.current) return;
        setDevice(null);
        setFailure(
          error instanceof RequestError && error.status === 403
            ? 'The sign-in was declined at the registry.'
            : error instanceof RequestError && error.status === 408
              ? 'The code expired before it was entered: start again.'
              : messageOf(error),
        );
        return;
      }
      timer = setTimeout(() => void poll(), Math.max(1, device.interval) * 1000);
    };
    timer = setTimeout(() => void poll(), Math.max(1, device.interval) * 1000);
    return () => {
      cancelled.current = true;
      clearTimeout(timer);
    };
  }, [device, onSignedIn]);

  async function start() {
    setStarting(true);
    setFailure(null);
    try {
      setDevice(await api.call(registryEndpoints.device, { body: {} }));
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setStarting(false);
    }
  }

  if (device) {
    return (
      <Alert color="blue" title="Confirm the sign-in at the registry" role="status">
        <Stack gap="xs">
          <Text fz="sm">
            Open{' '}
            <Anchor
              href={device.verification_uri_complete ?? device.verification_uri}
              target="_blank"
              rel="noreferrer"
              c="inherit"
              underline="always"
              fw={600}
            >
              {device.verification_uri}
            </Anchor>{' '}
            and enter this code:
          </Text>
          <Group gap="xs">
            <Code fz="xl" fw={700} data-testid="registry-user-code">
              {device.user_code}
            </Code>
            <CopyButton value={device.user_code}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy the code'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text fz="xs" c="dimmed">
            Waiting for the approval… the code is valid for {Math.round(device.expires_in / 60)} minutes.
          </Text>
          <Group>
            <Button size="xs" variant="default" onClick={() => setDevice(null)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  return (
    <div>
      <Button onClick={() => void start()} loading={starting}>
        Sign in to the registry
      </Button>
      {failure && (
        <Alert color="red" mt="sm" role="alert">
          {failure}
        </Alert>
      )}
    </div>
  );
}
