/**
 * Which nodes of the cached adjacency a graph search may reach, as a mask over dense indices.
 *
 * A node belongs to the sources that contributed it (`node_sources`, written by extraction commits)
 * and to its own `source_id` (set by API writes). Then:
 * - no `sourceIds`: every node except those whose sources are all disabled. Nodes of no source
 *   (created by hand) stay in: no disabled source hides them, and they often join extracted ones.
 * - `sourceIds`: only nodes of those sources that are enabled. Hand-made nodes belong to no source, so
 *   a scoped search leaves them out (the scope reads "what these sources say").
 *
 * Computed in SQL (the graph read model's `nodesOf*`, which the canvas shares) with cost proportional to the disabled or selected sources' contributions, not to
 * the graph, and cached with the adjacency until `graph_version.scope` moves (node_sources, a node's
 * source, a source enabled, disabled or deleted).
 */
import { nodesOfDisabledSourcesOnly, nodesOfSources } from '../../graph/index.ts';
import type { Db } from '../../storage/index.ts';
import { enabledSources } from '../read-model/graph-rows.ts';
import type { SearchScope } from '../types.ts';
import type { GraphAdjacency } from './adjacency.ts';
import type { PassageGraph } from './passages.ts';

export interface ScopeMask {
  /** 1 = reachable, per dense node index; null = every node. */
  mask: Uint8Array | null;
  /** Nodes in scope. */
  size: number;
}

const maxCachedMasks = 16;
const caches = new WeakMap<GraphAdjacency, Map<string, { version: number; scope: ScopeMask }>>();

export async function scopeMask(
  db: Db,
  adjacency: GraphAdjacency,
  scope: Pick<SearchScope, 'sourceIds'>,
  scopeVersion: number,
): Promise<ScopeMask> {
  const key = scope.sourceIds ? JSON.stringify([...new Set(scope.sourceIds)].sort()) : '*';
  let cache = caches.get(adjacency);
  if (!cache) caches.set(adjacency, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.version === scopeVersion) return hit.scope;
  const computed = await computeMask(db, adjacency, scope.sourceIds);
  cache.delete(key);
  cache.set(key, { version: scopeVersion, scope: computed });
  while (cache.size > maxCachedMasks) cache.delete(cache.keys().next().value!);
  return computed;
}

async function computeMask(db: Db, adjacency: GraphAdjacency, sourceIds: string[] | null): Promise<ScopeMask> {
  const n = adjacency.nodeCount;
  if (sourceIds) {
    const ids = await nodesOfSources(db, sourceIds);
    const mask = new Uint8Array(n);
    let size = 0;
    for (const id of ids) {
      const v = adjacency.index.get(id);
      if (v !== undefined && !mask[v]) {
        mask[v] = 1;
        size++;
      }
    }
    return { mask, size };
  }
  const hidden = await nodesOfDisabledSourcesOnly(db);
  if (!hidden.length) return { mask: null, size: n };
  const mask = new Uint8Array(n).fill(1);
  let size = n;
  for (const id of hidden) {
    const v = adjacency.index.get(id);
    if (v !== undefined && mask[v]) {
      mask[v] = 0;
      size--;
    }
  }
  return { mask, size };
}

const passageCaches = new WeakMap<PassageGraph, Map<string, { version: number; mask: Uint8Array | null }>>();

/**
 * The scope over the passage graph: the entity nodes as `entityMask` says, and the passages of enabled
 * sources (of the scope's sources when it names some). Null when everything is in. Cached per graph
 * and scope until `graph_version.scope` moves.
 */
export async function passageMask(
  db: Db,
  graph: PassageGraph,
  entityMask: ScopeMask,
  scope: Pick<SearchScope, 'sourceIds'>,
  scopeVersion: number,
): Promise<Uint8Array | null> {
  const key = scope.sourceIds ? JSON.stringify([...new Set(scope.sourceIds)].sort()) : '*';
  let cache = passageCaches.get(graph);
  if (!cache) passageCaches.set(graph, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.version === scopeVersion) return hit.mask;
  const allowed = new Set(await enabledSources(db, scope.sourceIds));
  const sourceAllowed = graph.sources.map((source) => allowed.has(source));
  let mask: Uint8Array | null = null;
  if (entityMask.mask || sourceAllowed.some((ok) => !ok)) {
    mask = new Uint8Array(graph.nodeCount);
    if (entityMask.mask) mask.set(entityMask.mask);
    else mask.fill(1, 0, graph.entityCount);
    for (let i = 0; i < graph.chunkIds.length; i++)
      mask[graph.entityCount + i] = sourceAllowed[graph.chunkSources[i]] ? 1 : 0;
  }
  cache.delete(key);
  cache.set(key, { version: scopeVersion, mask });
  while (cache.size > maxCachedMasks) cache.delete(cache.keys().next().value!);
  return mask;
}
