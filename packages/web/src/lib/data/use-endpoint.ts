import { useCallback } from 'react';
import { keepPreviousData, useQueries, useQuery, type QueryFunction } from '@tanstack/react-query';
import { RequestError, type Location } from '@rhizome/client';
import type { Endpoint, ResponseOf } from '@rhizome/contracts/endpoint';
import { api, messageOf } from '../api.ts';
import { keyOf } from './query-key.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  /** Loads again, keeping the current data on screen meanwhile; resolves to the fresh data. */
  reload: () => Promise<T | undefined>;
}

export interface EndpointOptions<T = unknown> {
  /** Loads again every so many milliseconds while mounted (a run in progress); a function decides from the data. */
  refreshMs?: number | false | ((data: T | undefined) => number | false);
  /** Whether the previous input's data stays on screen while the next loads (yes by default). */
  keepPrevious?: boolean;
}

/** `null` waits (an input not known yet); an endpoint without parameters or query needs no input. */
type InputArgs<E, O> =
  Record<never, never> extends Location<E>
    ? [input?: Location<E> | null, options?: O]
    : [input: Location<E> | null, options?: O];

type Paged<T> = { data: T[]; pagination: { has_next: boolean } };
type ItemOf<E> = ResponseOf<E> extends Paged<infer T> ? T : never;

const pageSize = 1000;

interface LooseLocation {
  params?: unknown;
  query?: unknown;
}

function useRead<T>(
  endpoint: Endpoint,
  location: LooseLocation | null | undefined,
  options: EndpointOptions<T> | undefined,
  load: (location: LooseLocation, signal: AbortSignal) => Promise<T>,
  variant?: string,
): Loaded<T> {
  const given = location ?? {};
  const queryFn: QueryFunction<T> = ({ signal }) => load(given, signal);
  const query = useQuery({
    queryKey: keyOf(endpoint, given, variant),
    queryFn,
    enabled: location !== null,
    // Data stays on screen while the next input loads; an answer for an older input is never shown.
    placeholderData: location === null || options?.keepPrevious === false ? undefined : keepPreviousData,
    refetchInterval: (query) => {
      const every = options?.refreshMs ?? false;
      return typeof every === 'function' ? every(query.state.data) : every;
    },
  });
  const { refetch } = query;
  const waiting = location === null;
  // A read still waiting for its input has nothing to load (a refetch would ignore `enabled`).
  const reload = useCallback(async () => (waiting ? undefined : (await refetch()).data), [refetch, waiting]);
  return {
    data: location === null ? undefined : query.data,
    error: query.error ? messageOf(query.error) : null,
    loading: query.isFetching || query.isPending,
    reload,
  };
}

/** Reads one endpoint through the cache: `useEndpoint(sourceEndpoints.get, { params: { source_id } })`. */
export function useEndpoint<E extends Endpoint>(
  endpoint: E,
  ...[input, options]: InputArgs<E, EndpointOptions<ResponseOf<E>>>
): Loaded<ResponseOf<E>> {
  return useRead(
    endpoint,
    input as LooseLocation | null | undefined,
    options,
    (location, signal) => api.call(endpoint as Endpoint, { ...location, signal } as never) as Promise<ResponseOf<E>>,
  );
}

/** Like `useEndpoint` for a resource that may not exist yet: a 404 answer reads as `null`, not an error. */
export function useEndpointIfFound<E extends Endpoint>(
  endpoint: E,
  ...[input, options]: InputArgs<E, EndpointOptions<ResponseOf<E> | null>>
): Loaded<ResponseOf<E> | null> {
  return useRead(
    endpoint,
    input as LooseLocation | null | undefined,
    options,
    (location, signal) =>
      (api.call(endpoint as Endpoint, { ...location, signal } as never) as Promise<ResponseOf<E>>).catch(
        (error: unknown) => {
          if (error instanceof RequestError && error.status === 404) return null;
          throw error;
        },
      ),
    'if-found',
  );
}

/** Reads every page of a paged list endpoint (the screen shows them all, virtualised or filtered locally). */
export function useEndpointPages<E extends Endpoint>(
  endpoint: E,
  ...[input, options]: InputArgs<E, EndpointOptions<ItemOf<E>[]>>
): Loaded<ItemOf<E>[]> {
  return useRead(
    endpoint,
    input as LooseLocation | null | undefined,
    options,
    (location, signal) => allPages<ItemOf<E>>(endpoint, location, signal),
    'all-pages',
  );
}

async function allPages<T>(endpoint: Endpoint, location: LooseLocation, signal: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page += 1) {
    const query = { ...(location.query as object), page, page_size: pageSize };
    const result = (await api.call(endpoint, { ...location, query, signal } as never)) as Paged<T>;
    all.push(...result.data);
    if (!result.pagination.has_next) return all;
  }
}

/** Reads one endpoint for each of several inputs (a count per template); `data` once every answer is in. */
export function useEndpointEach<E extends Endpoint>(
  endpoint: E,
  inputs: readonly Location<E>[] | undefined,
): { data: ResponseOf<E>[] | undefined; error: string | null } {
  return useQueries({
    queries: (inputs ?? []).map((input) => ({
      queryKey: keyOf(endpoint, input as LooseLocation),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.call(endpoint as Endpoint, { ...(input as LooseLocation), signal } as never) as Promise<ResponseOf<E>>,
    })),
    combine: (results) => {
      const failed = results.find((result) => result.error);
      const ready = inputs !== undefined && results.every((result) => result.data !== undefined);
      return {
        data: ready ? results.map((result) => result.data as ResponseOf<E>) : undefined,
        error: failed ? messageOf(failed.error) : null,
      };
    },
  });
}
