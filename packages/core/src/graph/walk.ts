import { jsonArrayValues, type Db } from '../storage/index.ts';

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
  /** Edge labels to follow, compared ignoring case (any when empty). */
  relationshipTypes: string[];
}

interface EdgeRow {
  id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
}

const frontierChunk = 500;

/** The edges whose `end` column is one of `ids`, of the wanted labels. */
async function edgesAt(db: Db, end: 'source_node_id' | 'target_node_id', ids: string[], types: string[]) {
  const query = db('graph_edges')
    .whereIn(end, ids)
    .select<EdgeRow[]>('id', 'source_node_id', 'target_node_id', 'label');
  if (types.length) query.whereRaw(`lower(label) IN (${jsonArrayValues(db)})`, [JSON.stringify(types)]);
  return query;
}

/** The edges leaving each node of `frontier` as the filter allows. */
async function hop(db: Db, frontier: string[], filter: WalkFilter): Promise<Step[]> {
  const steps: Step[] = [];
  const types = filter.relationshipTypes.map((type) => type.toLowerCase());
  for (let at = 0; at < frontier.length; at += frontierChunk) {
    const ids = frontier.slice(at, at + frontierChunk);
    if (filter.direction !== 'incoming')
      for (const row of await edgesAt(db, 'source_node_id', ids, types))
        steps.push({
          edge_id: row.id,
          from: row.source_node_id,
          to: row.target_node_id,
          relationship: row.label,
          forward: true,
        });
    if (filter.direction !== 'outgoing')
      for (const row of await edgesAt(db, 'target_node_id', ids, types))
        steps.push({
          edge_id: row.id,
          from: row.target_node_id,
          to: row.source_node_id,
          relationship: row.label,
          forward: false,
        });
  }
  return steps;
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
