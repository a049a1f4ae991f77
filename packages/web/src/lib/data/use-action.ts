import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@rhizome/client';
import type { Endpoint, ResponseOf } from '@rhizome/contracts/endpoint';
import { api } from '../api.ts';
import { isTargeted, type Target } from './query-key.ts';

export interface ActionOptions {
  /** The reads the action makes stale; every read of the endpoint's own tag by default. */
  refreshes?: readonly Target[];
}

type ActionArgs<E> = Record<never, never> extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

export interface Action<E> {
  /** Calls the endpoint; resolves once the reads it changed have loaded again, rejects with the API's error. */
  run: (...input: ActionArgs<E>) => Promise<ResponseOf<E>>;
  pending: boolean;
}

/** A change through one endpoint: `const remove = useAction(sourceEndpoints.delete); await remove.run({ params })`. */
export function useAction<E extends Endpoint>(endpoint: E, options: ActionOptions = {}): Action<E> {
  const refresh = useRefresh();
  const targets = options.refreshes ?? [{ tag: endpoint.tag }];
  const mutation = useMutation({
    mutationFn: (input: CallInput<E> | undefined) =>
      api.call(endpoint as Endpoint, input as never) as Promise<ResponseOf<E>>,
    onSuccess: () => refresh(targets),
  });
  const { mutateAsync } = mutation;
  const run = useCallback((...[input]: ActionArgs<E>) => mutateAsync(input), [mutateAsync]);
  return { run, pending: mutation.isPending };
}

/** Loads the targeted reads again, for a change made outside `useAction` (an upload, a streamed answer). */
export function useRefresh(): (targets: readonly Target[]) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    (targets: readonly Target[]) =>
      client.invalidateQueries({ predicate: (query) => isTargeted(query.queryKey, targets) }),
    [client],
  );
}
