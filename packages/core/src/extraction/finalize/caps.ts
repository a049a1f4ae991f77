/**
 * Step 11: relationship caps (null = off), each dropping lower-confidence edges first (on a tie, the
 * later-seen one):
 * - `maxSameSourceType`: edges of one type from one source entity;
 * - `maxEntityDegree`: edges touching one entity;
 * - `maxRelationshipRatio`: edges in all, as a multiple of the entity count.
 * The degree and ratio caps never take an entity's last edge: an edge whose endpoint has fewer than two
 * edges is kept past them.
 */
import type { FinalizeStats, RelationshipLimits } from '../types.ts';
import type { WorkRelationship } from './model.ts';

/** Indices of `relationships`, weakest first. */
function weakestFirst(relationships: readonly WorkRelationship[]): number[] {
  return relationships
    .map((_edge, index) => index)
    .sort(
      (a, b) =>
        relationships[a].confidence - relationships[b].confidence || relationships[b].order - relationships[a].order,
    );
}

function capSameSourceType(relationships: readonly WorkRelationship[], cap: number): Set<number> {
  const groups = new Map<string, number[]>();
  relationships.forEach((edge, index) => {
    const key = `${edge.sourceIndex}\u0000${edge.type}`;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  const dropped = new Set<number>();
  for (const group of groups.values()) {
    if (group.length <= cap) continue;
    group.sort(
      (a, b) =>
        relationships[b].confidence - relationships[a].confidence || relationships[a].order - relationships[b].order,
    );
    for (const index of group.slice(cap)) dropped.add(index);
  }
  return dropped;
}

function degrees(relationships: readonly WorkRelationship[], entityCount: number): Int32Array {
  const degree = new Int32Array(entityCount);
  for (const edge of relationships) {
    degree[edge.sourceIndex]++;
    if (edge.targetIndex !== edge.sourceIndex) degree[edge.targetIndex]++;
  }
  return degree;
}

function release(degree: Int32Array, edge: WorkRelationship): void {
  degree[edge.sourceIndex]--;
  if (edge.targetIndex !== edge.sourceIndex) degree[edge.targetIndex]--;
}

/** An endpoint with fewer than two edges has only this one: the edge is protected from the degree and ratio caps. */
const isProtected = (degree: Int32Array, edge: WorkRelationship) =>
  Math.min(degree[edge.sourceIndex], degree[edge.targetIndex]) < 2;

function capDegree(relationships: readonly WorkRelationship[], entityCount: number, cap: number): Set<number> {
  const degree = degrees(relationships, entityCount);
  const dropped = new Set<number>();
  // Degrees only fall as edges go, so one pass weakest-first settles every entity.
  for (const index of weakestFirst(relationships)) {
    const edge = relationships[index];
    if (degree[edge.sourceIndex] <= cap && degree[edge.targetIndex] <= cap) continue;
    if (isProtected(degree, edge)) continue;
    dropped.add(index);
    release(degree, edge);
  }
  return dropped;
}

function capRatio(relationships: readonly WorkRelationship[], entityCount: number, ratio: number): Set<number> {
  const allowed = Math.floor(ratio * entityCount);
  const dropped = new Set<number>();
  let remaining = relationships.length;
  if (remaining <= allowed) return dropped;
  const degree = degrees(relationships, entityCount);
  for (const index of weakestFirst(relationships)) {
    if (remaining <= allowed) break;
    const edge = relationships[index];
    if (isProtected(degree, edge)) continue;
    dropped.add(index);
    release(degree, edge);
    remaining--;
  }
  return dropped;
}

/** A cap as a usable number: null (and anything not a finite number) is off, a negative cap is 0. */
const capOf = (value: number | null): number | null =>
  value === null || !Number.isFinite(value) ? null : Math.max(0, value);

export function applyCaps(
  relationships: WorkRelationship[],
  entityCount: number,
  limits: RelationshipLimits,
  stats: FinalizeStats,
): WorkRelationship[] {
  let edges = relationships;
  const without = (dropped: Set<number>) => edges.filter((_edge, index) => !dropped.has(index));
  const sameSourceType = capOf(limits.maxSameSourceType);
  if (sameSourceType !== null) {
    const dropped = capSameSourceType(edges, sameSourceType);
    stats.cappedBySameSourceType += dropped.size;
    edges = without(dropped);
  }
  const degree = capOf(limits.maxEntityDegree);
  if (degree !== null) {
    const dropped = capDegree(edges, entityCount, degree);
    stats.cappedByDegree += dropped.size;
    edges = without(dropped);
  }
  const ratio = capOf(limits.maxRelationshipRatio);
  if (ratio !== null) {
    const dropped = capRatio(edges, entityCount, ratio);
    stats.cappedByRatio += dropped.size;
    edges = without(dropped);
  }
  return edges;
}
