import type { Db } from '@rhizome/core/storage';

/**
 * Walks over graph_edges one frontier at a time (one query per hop), so a walk costs what it visits,
 * not the size of the graph.
 */

export type WalkDirection = 'outgoing' | 'incoming' | 'both';

export interface Step {
  edge_id: string;
  from: string;
  to: string;
  relationship: string;
  /** Whether the edge points from `from` to `to` (false: walked against its direction). */
  forward: boolean;
}

export interface WalkFilter {
  direction: WalkDirection;
  /** Edge labels to follow (any when empty). */
  relationshipTypes: string[];
}

const frontierChunk = 500;

/** The edges leaving each node of `frontier` as the filter allows. */
async function hop(db: Db, frontier: string[], filter: WalkFilter): Promise<Step[]> {
  const steps: Step[] = [];
  const types = filter.relationshipTypes.map((type) => type.toLowerCase());
  for (let at = 0; at < frontier.length; at += frontierChunk) {
    const ids = JSON.stringify(frontier.slice(at, at + frontierChunk));
    const typeClause = types.length ? ' AND lower(label) IN (SELECT value FROM json_each(?))' : '';
    const typeArgs = types.length ? [JSON.stringify(types)] : [];
    if (filter.direction !== 'incoming') {
      const rows = (await db.raw(
        `SELECT id, source_node_id, target_node_id, label FROM graph_edges WHERE source_node_id IN (SELECT value FROM json_each(?))${typeClause}`,
        [ids, ...typeArgs],
      )) as EdgeRow[];
      for (const row of rows)
        steps.push({
          edge_id: row.id,
          from: row.source_node_id,
          to: row.target_node_id,
          relationship: row.label,
          forward: true,
        });
    }
    if (filter.direction !== 'outgoing') {
      const rows = (await db.raw(
        `SELECT id, source_node_id, target_node_id, label FROM graph_edges WHERE target_node_id IN (SELECT value FROM json_each(?))${typeClause}`,
        [ids, ...typeArgs],
      )) as EdgeRow[];
      for (const row of rows)
        steps.push({
          edge_id: row.id,
          from: row.target_node_id,
          to: row.source_node_id,
          relationship: row.label,
          forward: false,
        });
    }
  }
  return steps;
}

interface EdgeRow {
  id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
}

/** A fewest-hops path from `from` to `to` within `maxDepth` hops (breadth first), or null. */
export async function shortestPath(
  db: Db,
  from: string,
  to: string,
  maxDepth: number,
  filter: WalkFilter,
): Promise<Step[] | null> {
  if (from === to) return [];
  const reachedBy = new Map<string, Step | null>([[from, null]]);
  let frontier = [from];
  for (let depth = 0; depth < maxDepth && frontier.length; depth++) {
    const next: string[] = [];
    for (const step of await hop(db, frontier, filter)) {
      if (reachedBy.has(step.to)) continue;
      reachedBy.set(step.to, step);
      if (step.to === to) return pathTo(reachedBy, to);
      next.push(step.to);
    }
    frontier = next;
  }
  return null;
}

function pathTo(reachedBy: Map<string, Step | null>, to: string): Step[] {
  const path: Step[] = [];
  for (let step = reachedBy.get(to); step; step = reachedBy.get(step.from)) path.unshift(step);
  return path;
}

export interface Reached {
  node_id: string;
  depth: number;
  /** The edge it was first reached by. */
  via: Step;
}

/** The nodes within `depth` hops of `start`, each at its fewest hops, at most `limit` of them. */
export async function traverse(
  db: Db,
  start: string,
  depth: number,
  limit: number,
  filter: WalkFilter,
): Promise<{ reached: Reached[]; truncated: boolean }> {
  const seen = new Set([start]);
  const reached: Reached[] = [];
  let frontier = [start];
  for (let level = 1; level <= depth && frontier.length; level++) {
    const next: string[] = [];
    for (const step of await hop(db, frontier, filter)) {
      if (seen.has(step.to)) continue;
      if (reached.length >= limit) return { reached, truncated: true };
      seen.add(step.to);
      reached.push({ node_id: step.to, depth: level, via: step });
      next.push(step.to);
    }
    frontier = next;
  }
  return { reached, truncated: false };
}

/** PageRank over every edge (damping 0.85, dangling mass spread evenly), by power iteration. */
export async function pageRank(db: Db, iterations = 30): Promise<Map<string, number>> {
  const nodes = ((await db.raw('SELECT id FROM graph_nodes')) as { id: string }[]).map((row) => row.id);
  const index = new Map(nodes.map((id, at) => [id, at]));
  const edges = (await db.raw('SELECT source_node_id AS s, target_node_id AS t FROM graph_edges')) as {
    s: string;
    t: string;
  }[];
  const count = nodes.length;
  if (!count) return new Map();
  const outDegree = new Float64Array(count);
  const pairs: [number, number][] = [];
  for (const edge of edges) {
    const s = index.get(edge.s);
    const t = index.get(edge.t);
    if (s === undefined || t === undefined) continue;
    outDegree[s]++;
    pairs.push([s, t]);
  }
  let rank = new Float64Array(count).fill(1 / count);
  for (let round = 0; round < iterations; round++) {
    const next = new Float64Array(count);
    let dangling = 0;
    for (let at = 0; at < count; at++) if (outDegree[at] === 0) dangling += rank[at];
    for (const [s, t] of pairs) next[t] += (0.85 * rank[s]) / outDegree[s];
    const base = (0.15 + 0.85 * dangling) / count;
    for (let at = 0; at < count; at++) next[at] += base;
    rank = next;
  }
  return new Map(nodes.map((id, at) => [id, rank[at]]));
}
