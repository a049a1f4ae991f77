import { useState, type FormEvent } from 'react';
import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { RequestError } from '@rhizome/client';
import { api } from '../lib/api.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { AuthLayout } from './AuthLayout.tsx';

/** First run: creates the single account (and signs in). */
export function SetupScreen({ onDone }: { onDone: (username: string) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { busy, failure, run } = useSubmit();

  const mismatch = repeat.length > 0 && repeat !== password ? 'The passwords differ' : undefined;
  const fieldError = (field: string) => (failure instanceof RequestError ? failure.issueFor(field) : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (mismatch) return;
    await run(async () => {
      const created = await api.call(authEndpoints.setup, { body: { username, password } });
      onDone(created.username);
    });
  }

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Rhizome has one operator account. It protects the interface and the API on this machine."
    >
      <form onSubmit={submit} noValidate>
        <TextInput
          label="Username"
          description="3 to 64 characters"
          autoComplete="username"
          required
          value={username}
          onChange={(event) => setUsername(event.currentTarget.value)}
          error={fieldError('username')}
          data-autofocus
          mb="sm"
        />
        <PasswordInput
          label="Password"
          description="8 to 128 characters"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={fieldError('password')}
          mb="sm"
        />
        <PasswordInput
          label="Repeat the password"
          autoComplete="new-password"
          required
          value={repeat}
          onChange={(event) => setRepeat(event.currentTarget.value)}
          error={mismatch}
          mb="md"
        />
        {failure && !(failure instanceof RequestError && failure.issues.length) && (
          <Alert color="red" mb="md" role="alert">
            {typeof failure === 'string' ? failure : failure.message}
          </Alert>
        )}
        <Button type="submit" fullWidth loading={busy} disabled={!username || !password || !!mismatch}>
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}
