import type { Endpoint } from '@rhizome/contracts/endpoint';

/** What a read is cached under: the endpoint's tag, its method and path, then its path parameters and query. */
export type QueryKey = readonly [
  tag: string,
  route: string,
  location: { params?: unknown; query?: unknown },
  ...rest: string[],
];

/** Reads to refresh: every read of a tag, or only those of one endpoint. */
export interface Target {
  tag: string;
  endpoint?: Pick<Endpoint, 'method' | 'path'>;
}

const routeOf = (endpoint: Pick<Endpoint, 'method' | 'path'>) => `${endpoint.method} ${endpoint.path}`;

/** The cache key of one read; `variant` tells apart reads of the same location (every page versus one page). */
export function keyOf(endpoint: Endpoint, location: { params?: unknown; query?: unknown }, variant?: string): QueryKey {
  const key: QueryKey = [endpoint.tag, routeOf(endpoint), { params: location.params, query: location.query }];
  return variant ? [...key, variant] : key;
}

/** Whether a cached read (by its key) is one of the targets. */
export function isTargeted(key: readonly unknown[], targets: readonly Target[]): boolean {
  return targets.some((target) => key[0] === target.tag && (!target.endpoint || key[1] === routeOf(target.endpoint)));
}
