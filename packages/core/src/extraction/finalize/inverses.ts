/**
 * Step 13: with `inverseRelationships`, every edge whose type declares an inverse gets its mirror
 * (A parent_of B adds B child_of A, `inverseOf` = parent_of) unless that edge exists. Symmetric types
 * state both directions at once and get none. Mirrors follow all originals, in their order.
 */
import type { FinalizeStats } from '../types.ts';
import type { EdgeCatalog } from './edges.ts';
import type { WorkRelationship } from './model.ts';

const tripleKey = (source: number, target: number, type: string) => `${source}\u0000${target}\u0000${type}`;

export function addInverses(
  relationships: readonly WorkRelationship[],
  edges: EdgeCatalog,
  stats: FinalizeStats,
): WorkRelationship[] {
  const existing = new Set(relationships.map((edge) => tripleKey(edge.sourceIndex, edge.targetIndex, edge.type)));
  const mirrors: WorkRelationship[] = [];
  for (const edge of relationships) {
    const inverse = edges.inverse(edge.type);
    if (inverse === null) continue;
    const key = tripleKey(edge.targetIndex, edge.sourceIndex, inverse);
    if (existing.has(key)) continue;
    existing.add(key);
    mirrors.push({
      ...edge,
      sourceIndex: edge.targetIndex,
      targetIndex: edge.sourceIndex,
      type: inverse,
      evidence: [...edge.evidence],
      directionCorrected: false,
      inverseOf: edge.type,
    });
  }
  stats.inversesAdded += mirrors.length;
  return [...relationships, ...mirrors];
}
