import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { messageOf } from '../../lib/api.ts';

/** Shades that keep their contrast on the card in either colour scheme. */
const outcomeColour = {
  ok: 'light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-4))',
  failed: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))',
};

interface Props {
  title: string;
  description: string;
  /** The active database's name, which must be typed to enable the action. */
  database: string;
  action: string;
  /** Runs the reset; resolves to the sentence that tells what it did. */
  run: () => Promise<string>;
}

/** A destructive maintenance action, enabled only once the database's name is typed. */
export function ConfirmedReset({ title, description, database, action, run }: Props) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const confirmed = typed === database;

  async function go() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, text: await run() });
      setTyped('');
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={title}>
      <Stack gap="xs">
        <Title order={4}>{title}</Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
        <Group align="end" wrap="wrap">
          <TextInput
            label={`Type “${database}” to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            style={{ flex: '1 1 14rem' }}
          />
          <Button color="red" onClick={() => void go()} disabled={!confirmed} loading={busy}>
            {action}
          </Button>
        </Group>
        {outcome && (
          <Text size="sm" c={outcome.ok ? outcomeColour.ok : outcomeColour.failed} role="status">
            {outcome.text}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
