import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { api, sessionEndedEvent } from '../lib/api.ts';
import { SignInScreen } from './SignInScreen.tsx';
import { SetupScreen } from './SetupScreen.tsx';
import { FirstRunWizard } from './FirstRunWizard.tsx';
import { MaintenanceGate } from '../screens/maintenance/MaintenanceGate.tsx';

interface Session {
  username: string;
  /** Forgets the session locally (after sign-out or a password change): the sign-in screen shows. */
  ended: (notice?: string) => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in interface');
  return session;
}

type State =
  | { kind: 'loading' }
  | { kind: 'setup' }
  | { kind: 'first-run'; username: string }
  | { kind: 'signed-out'; notice?: string }
  | { kind: 'signed-in'; username: string }
  | { kind: 'unreachable'; message: string };

/** Shows first-run setup, sign-in or the interface, from GET /auth/status. */
export function SessionGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const check = useCallback(async () => {
    try {
      const status = await api.call(authEndpoints.status);
      if (status.setup_needed) setState({ kind: 'setup' });
      else if (status.authenticated && status.username) setState({ kind: 'signed-in', username: status.username });
      else setState((current) => (current.kind === 'signed-out' ? current : { kind: 'signed-out' }));
    } catch (error) {
      setState({ kind: 'unreachable', message: error instanceof Error ? error.message : String(error) });
    }
  }, []);

  useEffect(() => {
    void check();
    const onEnded = () =>
      setState((current) =>
        current.kind === 'signed-in'
          ? { kind: 'signed-out', notice: 'Your session has ended: sign in again.' }
          : current,
      );
    window.addEventListener(sessionEndedEvent, onEnded);
    return () => window.removeEventListener(sessionEndedEvent, onEnded);
  }, [check]);

  const signedIn = (username: string) => setState({ kind: 'signed-in', username });
  const ended = useCallback((notice?: string) => setState({ kind: 'signed-out', notice }), []);

  switch (state.kind) {
    case 'loading':
      return (
        <Center h="100vh">
          <Loader aria-label="Loading" />
        </Center>
      );
    case 'setup':
      return <SetupScreen onDone={(username) => setState({ kind: 'first-run', username })} />;
    case 'first-run':
      return <FirstRunWizard onDone={() => signedIn(state.username)} />;
    case 'signed-out':
      return <SignInScreen notice={state.notice} onDone={signedIn} onSetupNeeded={() => setState({ kind: 'setup' })} />;
    case 'unreachable':
      return (
        <SignInScreen
          notice={`The server is not reachable: ${state.message}`}
          onDone={signedIn}
          onSetupNeeded={() => setState({ kind: 'setup' })}
        />
      );
    case 'signed-in':
      return (
        <SessionContext.Provider value={{ username: state.username, ended }}>
          <MaintenanceGate>{children}</MaintenanceGate>
        </SessionContext.Provider>
      );
  }
}
