import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { eventEndpoints, type ChangeEventBody } from '@rhizome/contracts/api/events';
import { RequestError } from '@rhizome/client';
import { api } from './api.ts';

type Listener = (event: ChangeEventBody) => void;
/** live: the stream is open; polling: it failed and screens refresh on a timer until it is back. */
export type ChangeMode = 'connecting' | 'live' | 'polling';

interface Changes {
  mode: ChangeMode;
  subscribe: (listener: Listener) => () => void;
}

const ChangesContext = createContext<Changes | null>(null);
const retryDelaysMs = [1_000, 2_000, 5_000, 10_000];

/** Holds one GET /events stream for the whole interface and hands its changes to the screens. */
export function ChangesProvider({ children }: { children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const [mode, setMode] = useState<ChangeMode>('connecting');
  const [changes] = useState<Omit<Changes, 'mode'>>(() => ({
    subscribe: (listener) => {
      listeners.current.add(listener);
      return () => listeners.current.delete(listener);
    },
  }));

  useEffect(() => {
    const abort = new AbortController();
    let failures = 0;
    const follow = async () => {
      while (!abort.signal.aborted) {
        try {
          await api.stream<typeof eventEndpoints.stream, ChangeEventBody>(
            eventEndpoints.stream,
            {},
            (event) => {
              if (event.type === 'ready') {
                failures = 0;
                setMode('live');
              }
              for (const listener of listeners.current) listener(event);
            },
            abort.signal,
          );
        } catch (error) {
          if (abort.signal.aborted || (error instanceof RequestError && error.status === 401)) return;
        }
        if (abort.signal.aborted) return;
        setMode('polling');
        await new Promise((resolve) =>
          setTimeout(resolve, retryDelaysMs[Math.min(failures++, retryDelaysMs.length - 1)]),
        );
      }
    };
    void follow();
    return () => abort.abort();
  }, []);

  return <ChangesContext.Provider value={{ ...changes, mode }}>{children}</ChangesContext.Provider>;
}

/** Calls `listener` for every change while the component is mounted; `onPoll` runs every `pollMs` only while the stream is down. */
export function useChanges(listener: Listener, onPoll?: () => void, pollMs = 5_000): ChangeMode {
  const changes = useContext(ChangesContext);
  if (!changes) throw new Error('useChanges outside ChangesProvider');
  const latest = useRef({ listener, onPoll });
  latest.current = { listener, onPoll };
  useEffect(() => changes.subscribe((event) => latest.current.listener(event)), [changes]);
  useEffect(() => {
    if (changes.mode !== 'polling' || !latest.current.onPoll) return;
    const timer = setInterval(() => latest.current.onPoll?.(), pollMs);
    return () => clearInterval(timer);
  }, [changes.mode, pollMs]);
  return changes.mode;
}

/** Whether changes arrive live (for a badge); screens read through `useEndpoint` and need no listener. */
export function useChangeMode(): ChangeMode {
  const changes = useContext(ChangesContext);
  if (!changes) throw new Error('useChangeMode outside ChangesProvider');
  return changes.mode;
}
