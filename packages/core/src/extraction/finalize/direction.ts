/**
 * Step 10: an edge whose endpoint types break its template's `source_types`/`target_types` while the
 * reverse direction fits was written backwards ("Paris born_in Marie Curie"): swapped with
 * `directionCorrection`, else dropped. An edge that fits neither way, or whose endpoints are of generic
 * types, is left alone: nothing says which way it should go.
 */
import type { FinalizeStats } from '../types.ts';
import type { EdgeCatalog } from './edges.ts';
import type { WorkEntity, WorkRelationship } from './model.ts';

export function correctDirections(
  relationships: readonly WorkRelationship[],
  entities: readonly WorkEntity[],
  edges: EdgeCatalog,
  swap: boolean,
  stats: FinalizeStats,
): WorkRelationship[] {
  const out: WorkRelationship[] = [];
  for (const relationship of relationships) {
    const sourceType = entities[relationship.sourceIndex].type;
    const targetType = entities[relationship.targetIndex].type;
    if (
      edges.fits(relationship.type, sourceType, targetType) ||
      !edges.fits(relationship.type, targetType, sourceType)
    ) {
      out.push(relationship);
    } else if (swap) {
      stats.directionCorrected++;
      out.push({
        ...relationship,
        sourceIndex: relationship.targetIndex,
        targetIndex: relationship.sourceIndex,
        directionCorrected: true,
      });
    } else {
      stats.directionDropped++;
    }
  }
  return out;
}
