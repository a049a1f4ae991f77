import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  /** Loads again, keeping the current data on screen meanwhile. */
  reload: () => Promise<void>;
  /** Replaces the data locally (an optimistic update or a pushed change). */
  set: (update: (current: T | undefined) => T | undefined) => void;
}

/** Loads data for a screen when its inputs change; a late answer for older inputs is dropped. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, inputs: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;

  const run = useCallback(async () => {
    const mine = ++generation.current;
    const abort = new AbortController();
    setLoading(true);
    try {
      const value = await loader.current(abort.signal);
      if (mine !== generation.current) return;
      setData(value);
      setError(null);
    } catch (failure) {
      if (mine === generation.current) setError(messageOf(failure));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void run();
  }, inputs);
  const set = useCallback(
    (update: (current: T | undefined) => T | undefined) => setData((current) => update(current)),
    [],
  );
  return { data, error, loading, reload: run, set };
}
