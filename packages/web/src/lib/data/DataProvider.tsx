import { useEffect, useRef, useState, type ReactNode } from 'react';
import { notifyManager, QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import { useChanges } from '../ChangesProvider.tsx';
import { isTargeted, type Target } from './query-key.ts';
import { everything, refreshedBy } from './invalidation.ts';

/** A burst of changes (an upload's progress) becomes one refresh per read. */
const coalesceMs = 150;
const pollMs = 5_000;

// Answers reach the screens without a timer, so held timers (a background tab's, a test's frozen clock) never delay them.
notifyManager.setScheduler(queueMicrotask);

function newClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A screen loads afresh when it opens (cached data shows meanwhile); later the change stream says when.
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/**
 * Refreshes the reads a change names. A read already loading is not cancelled (a stream of progress
 * would restart it forever): it loads once more when it ends, so no change is lost.
 */
function useRefresher(client: QueryClient): (targets: readonly Target[] | typeof everything) => void {
  const [refresher] = useState(() => {
    const pending: Target[] = [];
    let all = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = new Set<string>();
    client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || !again.has(event.query.queryHash)) return;
      if (event.action.type !== 'success' && event.action.type !== 'error') return;
      again.delete(event.query.queryHash);
      void client.invalidateQueries({ queryKey: event.query.queryKey, exact: true });
    });
    const flush = () => {
      timer = undefined;
      const predicate = (query: Query) => all || isTargeted(query.queryKey, pending);
      for (const query of client.getQueryCache().findAll({ predicate, fetchStatus: 'fetching' }))
        again.add(query.queryHash);
      void client.invalidateQueries({ predicate }, { cancelRefetch: false });
      pending.length = 0;
      all = false;
    };
    return (targets: readonly Target[] | typeof everything) => {
      if (targets === everything) all = true;
      else pending.push(...targets);
      timer ??= setTimeout(flush, coalesceMs);
    };
  });
  return refresher;
}

/** The read cache of the interface, kept fresh by the change stream (or a poll while the stream is down). */
export function DataProvider({ children }: { children: ReactNode }) {
  const [client] = useState(newClient);
  const refresh = useRefresher(client);
  const opened = useRef(false);
  useChanges(
    (event) => {
      // The first stream's ready opens the session; a later one follows a break in which changes were missed.
      if (event.type === 'ready' && !opened.current) {
        opened.current = true;
        return;
      }
      refresh(refreshedBy(event));
    },
    () => refresh(everything),
    pollMs,
  );
  useEffect(() => () => client.clear(), [client]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
