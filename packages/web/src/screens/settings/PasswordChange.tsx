import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, PasswordInput, Text, Title } from '@mantine/core';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { RequestError } from '@rhizome/client';
import { useSession } from '../../auth/SessionGate.tsx';
import { useSubmit } from '../../lib/use-submit.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** Changing the password ends every session, this one included: the sign-in screen follows. */
export function PasswordChange() {
  const changePassword = useAction(authEndpoints.password);
  const { ended } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const { busy, failure, run } = useSubmit();
  const mismatch = repeat && repeat !== next ? 'The passwords differ' : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (mismatch) return;
    await run(async () => {
      await changePassword.run({ body: { old_password: current, new_password: next } });
      ended('Your password was changed: sign in with the new one.');
    });
  }

  const wrong = failure instanceof RequestError && failure.status === 403;
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Password
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        Every browser signed in to Rhizome is signed out, this one too.
      </Text>
      <form onSubmit={submit} noValidate>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.currentTarget.value)}
          error={wrong ? 'This is not the current password' : undefined}
          mb="sm"
          required
        />
        <PasswordInput
          label="New password"
          description="8 to 128 characters"
          autoComplete="new-password"
          value={next}
          onChange={(event) => setNext(event.currentTarget.value)}
          error={failure instanceof RequestError ? failure.issueFor('new_password') : undefined}
          mb="sm"
          required
        />
        <PasswordInput
          label="Repeat the new password"
          autoComplete="new-password"
          value={repeat}
          onChange={(event) => setRepeat(event.currentTarget.value)}
          error={mismatch}
          mb="md"
          required
        />
        {failure && !wrong && !(failure instanceof RequestError && failure.issues.length) && (
          <Alert color="red" mb="sm" role="alert">
            {typeof failure === 'string' ? failure : failure.message}
          </Alert>
        )}
        <Button type="submit" loading={busy} disabled={!current || !next || !!mismatch}>
          Change the password
        </Button>
      </form>
    </Card>
  );
}
