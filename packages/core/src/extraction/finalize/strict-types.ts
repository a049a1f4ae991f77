/** Step 9: with `strictEdgeTypes`, only relationships of the domain's edge templates stay. */
import type { FinalizeStats } from '../types.ts';
import type { EdgeCatalog } from './edges.ts';
import type { WorkRelationship } from './model.ts';

export function keepTemplateTypes(
  relationships: readonly WorkRelationship[],
  edges: EdgeCatalog,
  stats: FinalizeStats,
): WorkRelationship[] {
  const kept = relationships.filter((relationship) => edges.template(relationship.type) !== null);
  stats.strictTypeDropped += relationships.length - kept.length;
  return kept;
}
