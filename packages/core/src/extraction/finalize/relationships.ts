/**
 * Step 8: relationships onto the merged entities. Endpoints go through every merge; an edge whose
 * endpoint was dropped goes, and so does a self-loop unless allowed. Then one edge per fact: exact
 * triples, both directions of a symmetric type (A sibling_of B, B sibling_of A), and both halves of an
 * inverse pair (A parent_of B, B child_of A) become one, at the highest confidence with their evidence
 * joined.
 */
import type { FinalizeStats } from '../types.ts';
import type { EdgeCatalog } from './edges.ts';
import { unionEvidence } from './merge.ts';
import type { WorkRelationship } from './model.ts';

/** Endpoints from aggregate indices to current ones; dangling edges and (unless allowed) self-loops dropped. */
export function remapRelationships(
  relationships: readonly WorkRelationship[],
  map: Int32Array,
  allowSelfLoops: boolean,
  stats: FinalizeStats,
): WorkRelationship[] {
  const out: WorkRelationship[] = [];
  for (const relationship of relationships) {
    const source = map[relationship.sourceIndex];
    const target = map[relationship.targetIndex];
    if (source < 0 || target < 0) {
      stats.danglingDropped++;
      continue;
    }
    if (source === target && !allowSelfLoops) {
      stats.selfLoopsDropped++;
      continue;
    }
    out.push({ ...relationship, sourceIndex: source, targetIndex: target });
  }
  return out;
}

/**
 * The fact an edge states, the same for every way of writing it: a symmetric edge by its endpoints in
 * index order, an inverse pair by the canonical type's direction.
 */
function factKey(relationship: WorkRelationship, edges: EdgeCatalog): string {
  const { sourceIndex: source, targetIndex: target, type } = relationship;
  if (edges.symmetric(type)) return `${Math.min(source, target)}\u0000${Math.max(source, target)}\u0000${type}`;
  const canonical = edges.canonical(type);
  return canonical === type ? `${source}\u0000${target}\u0000${type}` : `${target}\u0000${source}\u0000${canonical}`;
}

/**
 * One edge per fact, in first-seen order. The kept edge is written as the canonical type when either
 * half of an inverse pair used it, else as first seen; confidence and justification are the best edge's.
 */
export function collapseRelationships(
  relationships: readonly WorkRelationship[],
  edges: EdgeCatalog,
  stats: FinalizeStats,
): WorkRelationship[] {
  const byFact = new Map<string, WorkRelationship>();
  const out: WorkRelationship[] = [];
  for (const relationship of relationships) {
    const key = factKey(relationship, edges);
    const kept = byFact.get(key);
    if (!kept) {
      const copy = { ...relationship };
      byFact.set(key, copy);
      out.push(copy);
      continue;
    }
    stats.relationshipsDeduplicated++;
    const canonical = edges.canonical(relationship.type);
    if (kept.type !== canonical && relationship.type === canonical) {
      kept.type = relationship.type;
      kept.sourceIndex = relationship.sourceIndex;
      kept.targetIndex = relationship.targetIndex;
      kept.directionCorrected = relationship.directionCorrected;
    }
    if (relationship.confidence > kept.confidence) {
      kept.confidence = relationship.confidence;
      kept.justification = relationship.justification;
    }
    kept.evidence = unionEvidence(kept.evidence, relationship.evidence);
    kept.order = Math.min(kept.order, relationship.order);
  }
  return out;
}
