import { useState, type FormEvent } from 'react';
import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { RequestError } from '@rhizome/client';
import { api, messageOf } from '../lib/api.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { AuthLayout } from './AuthLayout.tsx';

/** Sign-in with the wrong-password and rate-limit messages the server gives. */
export function SignInScreen({
  notice,
  onDone,
  onSetupNeeded,
}: {
  notice?: string;
  onDone: (username: string) => void;
  onSetupNeeded: () => void;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { busy, failure, run } = useSubmit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(
      async () => {
        const signedIn = await api.call(authEndpoints.login, { body: { username, password } });
        onDone(signedIn.username);
      },
      (error) => {
        if (error instanceof RequestError && error.status === 409) {
          onSetupNeeded();
          return null;
        }
        setPassword('');
        return error instanceof RequestError && error.status === 401 ? 'Wrong username or password.' : messageOf(error);
      },
    );
  }

  return (
    <AuthLayout title="Sign in" subtitle="Your knowledge graph, on this machine.">
      {notice && !failure && (
        <Alert color="blue" role="status">
          {notice}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <TextInput
          label="Username"
          autoComplete="username"
          required
          value={username}
          onChange={(event) => setUsername(event.currentTarget.value)}
          data-autofocus
          mb="sm"
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          mb="md"
        />
        {failure && (
          <Alert color="red" mb="md" role="alert" title="Not signed in">
            {typeof failure === 'string' ? failure : failure.message}
          </Alert>
        )}
        <Button type="submit" fullWidth loading={busy} disabled={!username || !password}>
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}
