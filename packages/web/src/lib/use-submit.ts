import { useCallback, useState } from 'react';
import { RequestError } from '@rhizome/client';
import { messageOf } from './api.ts';

/** What a failed submit shows: the request error (with its field issues) or a message. */
export type Failure = RequestError | string | null;

const asFailure = (error: unknown): Failure => (error instanceof RequestError ? error : messageOf(error));

/** Runs a form's action with a busy flag; a thrown error becomes `failure` (through `fail` when given). */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(null);

  const run = useCallback(async (action: () => Promise<void>, fail: (error: unknown) => Failure = asFailure) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(fail(error));
    } finally {
      setBusy(false);
    }
  }, []);

  return { busy, failure, run };
}
