/** Step 12: unless `protectOrphans`, an entity no relationship touches is dropped and the edges' indices follow. */
import type { FinalizeStats } from '../types.ts';
import { keepEntities, type WorkEntity, type WorkRelationship } from './model.ts';

export function dropOrphans(
  entities: WorkEntity[],
  relationships: readonly WorkRelationship[],
  stats: FinalizeStats,
): { entities: WorkEntity[]; relationships: WorkRelationship[] } {
  const linked = new Uint8Array(entities.length);
  for (const edge of relationships) {
    linked[edge.sourceIndex] = 1;
    linked[edge.targetIndex] = 1;
  }
  const { entities: kept, local } = keepEntities(entities, (_entity, index) => linked[index] === 1);
  stats.orphansDropped += entities.length - kept.length;
  return {
    entities: kept,
    relationships: relationships.map((edge) => ({
      ...edge,
      sourceIndex: local[edge.sourceIndex],
      targetIndex: local[edge.targetIndex],
    })),
  };
}
