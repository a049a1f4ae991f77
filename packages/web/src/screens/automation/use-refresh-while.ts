import { useEffect, useRef } from 'react';

/**
 * Calls `refresh` every `ms` while `active`: a run's own state changes (queued → running → done) are not
 * all announced on the events stream, so screens showing unfinished runs check again on their own.
 */
export function useRefreshWhile(active: boolean, refresh: () => void, ms = 2_000): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}
