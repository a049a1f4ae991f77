import { Alert, Button, Group, TextInput } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { countOf } from '../lib/format.ts';
import type { ServerCheck } from '../lib/use-local-server-check.ts';

/** A local model server's address with its connection test and what the test found. */
export function LocalServerField({
  url,
  onUrl,
  check,
  onTest,
}: {
  url: string;
  onUrl: (url: string) => void;
  check: ServerCheck | 'checking' | undefined;
  onTest: () => void;
}) {
  return (
    <div>
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Server address"
          value={url}
          onChange={(event) => onUrl(event.currentTarget.value)}
          flex={1}
          miw={200}
        />
        <Button
          variant="light"
          leftSection={<IconPlugConnected size={16} />}
          loading={check === 'checking'}
          disabled={!url.trim()}
          onClick={onTest}
        >
          Test connection
        </Button>
      </Group>
      {check && check !== 'checking' && (
        <Alert
          mt="xs"
          color={check.success ? 'teal' : 'red'}
          role="status"
          title={check.success ? 'Connected' : 'Not reachable'}
        >
          {check.success
            ? `Version ${check.version ?? 'unknown'} · ${countOf(check.model_count ?? 0, 'model')}`
            : check.message}
        </Alert>
      )}
    </div>
  );
}
