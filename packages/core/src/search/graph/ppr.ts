/**
 * Personalized PageRank over the cached adjacency (the walk of graph search, docs/decisions/0024), by power iteration,
 * and plain PageRank as its uniform case (`pageRank`).
 *
 * The walk is undirected: from a node it steps to any neighbour along an outgoing or incoming edge
 * (each slot of the undirected CSR counts once, so parallel edges weigh more). Extracted relations have a direction
 * chosen by wording ("A part of B" vs "B contains A"; finalisation even adds inverse edges), and a
 * directed walk strands mass on the many sink entities and cannot reach a passage about an entity
 * that points *at* the query's entity. Undirected PPR reaches both.
 *
 * The scope is a mask over the dense node indices (nodes outside it hold no mass, receive none and
 * do not count towards their neighbours' degree), so narrowing a search never rebuilds the graph.
 * Mass of dangling nodes (no neighbour in the mask) returns to the personalization, as in networkx and
 * rustworkx. Convergence follows them too: stop when the L1 change of an iteration is below
 * `nodes in scope × tolerance`, or after `maxIterations`.
 */
import type { AdjacencyGraph } from './adjacency.ts';

export interface PprOptions {
  /** Probability of following an edge rather than jumping back to the seeds (`graphrag.ppr_damping`). */
  damping: number;
  /** Per-node L1 tolerance (default 1e-6). */
  tolerance?: number;
  /** Default 100. */
  maxIterations?: number;
}

export interface PprResult {
  /** Score per dense node index (0 outside the mask); sums to 1 when any seed is in the mask. */
  scores: Float64Array;
  iterations: number;
  converged: boolean;
  /** Nodes the walk ran over (the mask's size). */
  activeCount: number;
  /** Those nodes' dense indices: the only ones that can hold a score (see `topNodes`). */
  active: Int32Array;
  /**
   * The share of the personalization each node received per unit of its weight in the last iteration
   * (1 − damping plus the dangling mass returned): an isolated seed outside the graph would hold
   * `restart × its weight`.
   */
  restart: number;
}

/** The dense indices a mask admits (every node when `mask` is null). */
function activeNodes(nodeCount: number, mask: Uint8Array | null): Int32Array {
  if (!mask) {
    const all = new Int32Array(nodeCount);
    for (let v = 0; v < nodeCount; v++) all[v] = v;
    return all;
  }
  let count = 0;
  for (let v = 0; v < nodeCount; v++) count += mask[v];
  const active = new Int32Array(count);
  for (let v = 0, i = 0; v < nodeCount; v++) if (mask[v]) active[i++] = v;
  return active;
}

/**
 * A node-sized scratch array per graph, all zeros between calls: a walk over a small region of a large
 * graph then touches only its region, instead of allocating and clearing arrays the size of the graph.
 */
const shareScratch = new WeakMap<AdjacencyGraph, Float64Array>();

function zeroedShare(graph: AdjacencyGraph): Float64Array {
  let share = shareScratch.get(graph);
  if (!share) shareScratch.set(graph, (share = new Float64Array(graph.nodeCount)));
  return share;
}

/**
 * PPR of `personalization` (dense index → weight, normalised here; seeds outside the mask ignored)
 * over `graph` restricted to `mask` (1 = in scope; null = every node). The iteration runs over the
 * mask's nodes only, so its cost follows the region, not the graph.
 */
export function personalizedPageRank(
  graph: AdjacencyGraph,
  personalization: ReadonlyMap<number, number>,
  mask: Uint8Array | null,
  options: PprOptions,
): PprResult {
  const n = graph.nodeCount;
  const damping = options.damping;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 100;
  const active = activeNodes(n, mask);
  const k = active.length;
  const scores = new Float64Array(n);

  // Local arrays, indexed by position in `active`.
  const p = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < k; i++) {
    const weight = personalization.get(active[i]);
    if (weight !== undefined && weight > 0) {
      p[i] = weight;
      total += weight;
    }
  }
  if (total === 0) return { scores, iterations: 0, converged: true, activeCount: k, active, restart: 1 - damping };
  for (let i = 0; i < k; i++) p[i] /= total;

  const offsets = graph.offsets;
  const neighbors = graph.neighbors;

  // Degree within the mask: the number of slots whose other end is in scope.
  const degree = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const v = active[i];
    if (!mask) {
      degree[i] = offsets[v + 1] - offsets[v];
      continue;
    }
    let d = 0;
    for (let j = offsets[v], end = offsets[v + 1]; j < end; j++) d += mask[neighbors[j]];
    degree[i] = d;
  }

  let x = Float64Array.from(p);
  let next = new Float64Array(k);
  // Each node's share per slot, by dense index; stays 0 outside the mask and for dangling nodes, so pulls need no test.
  const share = zeroedShare(graph);
  let iterations = 0;
  let converged = false;
  let restart = 1 - damping;
  try {
    while (iterations < maxIterations) {
      iterations++;
      let dangling = 0;
      for (let i = 0; i < k; i++) {
        if (degree[i] === 0) dangling += x[i];
        else share[active[i]] = x[i] / degree[i];
      }
      restart = 1 - damping + damping * dangling;
      let change = 0;
      for (let i = 0; i < k; i++) {
        const v = active[i];
        let sum = 0;
        for (let j = offsets[v], end = offsets[v + 1]; j < end; j++) sum += share[neighbors[j]];
        const value = damping * sum + restart * p[i];
        change += Math.abs(value - x[i]);
        next[i] = value;
      }
      const previous = x;
      x = next;
      next = previous;
      if (change < k * tolerance) {
        converged = true;
        break;
      }
    }
  } finally {
    for (let i = 0; i < k; i++) share[active[i]] = 0;
  }
  for (let i = 0; i < k; i++) scores[active[i]] = x[i];
  return { scores, iterations, converged, activeCount: k, active, restart };
}

/**
 * PageRank: the walk above with every node of the mask weighted alike as its restart, so the mass of a
 * dangling node spreads evenly over the graph. What ranks the most central nodes of a graph.
 */
export function pageRank(graph: AdjacencyGraph, mask: Uint8Array | null, options: PprOptions): PprResult {
  const uniform = new Map<number, number>();
  for (const v of activeNodes(graph.nodeCount, mask)) uniform.set(v, 1);
  return personalizedPageRank(graph, uniform, mask, options);
}

/**
 * The part of the scope PPR runs over when the scope is larger than `maxNodes`
 * (`graphrag.max_graph_nodes`): the `maxNodes` in-scope nodes nearest the seeds, breadth-first along
 * edges of either direction, seeds first in the order given. Returns `mask` itself when it fits. PPR
 * mass decays by the damping factor with every hop, so the far nodes left out would hold almost none;
 * bounding the region bounds the work per query however large the graph grows.
 */
export function seedRegion(
  graph: AdjacencyGraph,
  seeds: readonly number[],
  mask: Uint8Array | null,
  maxNodes: number,
): Uint8Array | null {
  const n = graph.nodeCount;
  let inScope = n;
  if (mask) {
    inScope = 0;
    for (let v = 0; v < n; v++) inScope += mask[v];
  }
  if (inScope <= maxNodes) return mask;
  const region = new Uint8Array(n);
  const queue = new Int32Array(Math.min(maxNodes, n));
  let size = 0;
  const visit = (v: number) => {
    if (size >= maxNodes || region[v] || (mask && !mask[v])) return;
    region[v] = 1;
    queue[size++] = v;
  };
  for (const seed of seeds) visit(seed);
  for (let head = 0; head < size && size < maxNodes; head++) {
    const v = queue[head];
    for (let j = graph.offsets[v], end = graph.offsets[v + 1]; j < end && size < maxNodes; j++)
      visit(graph.neighbors[j]);
  }
  return region;
}

/**
 * The `k` highest-scoring nodes with a positive score that `accept` admits, best first (ties by
 * lower index). Looks only at `candidates` when given (a walk's `active` nodes), else at every node.
 */
export function topNodes(
  scores: Float64Array,
  k: number,
  accept: (v: number) => boolean = () => true,
  candidates?: Int32Array,
): number[] {
  const top: number[] = [];
  if (k <= 0) return top;
  const count = candidates ? candidates.length : scores.length;
  for (let i = 0; i < count; i++) {
    const v = candidates ? candidates[i] : i;
    const score = scores[v];
    if (!(score > 0)) continue;
    if (top.length === k && (score < scores[top[k - 1]] || (score === scores[top[k - 1]] && v > top[k - 1]))) continue;
    if (!accept(v)) continue;
    if (top.length === k) top.pop();
    top.push(v);
    let at = top.length - 1;
    while (at > 0 && (scores[top[at - 1]] < score || (scores[top[at - 1]] === score && top[at - 1] > v))) {
      top[at] = top[at - 1];
      at--;
    }
    top[at] = v;
  }
  return top;
}
