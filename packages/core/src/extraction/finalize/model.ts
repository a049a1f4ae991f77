/**
 * The finaliser's working shapes. Entities and relationships carry the position they were first seen
 * at (`order`), which keeps every step's output in first-seen order and breaks every tie the same way.
 */
import type { FinalEntity, FinalizeStats, FinalRelationship } from '../types.ts';

export interface WorkEntity extends FinalEntity {
  /** Position in the aggregated list (group order, then position in the group); the smallest of a merge. */
  order: number;
}

export interface WorkRelationship extends FinalRelationship {
  order: number;
}

/**
 * The entities after a step and where each aggregated entity went: `map[aggregateIndex]` is its index
 * in `entities`, or -1 once it was dropped.
 */
export interface EntityState {
  entities: WorkEntity[];
  map: Int32Array;
}

/** What a merging or dropping step returns: the new list and, for each old index, the new one (-1 = dropped). */
export interface StepResult {
  entities: WorkEntity[];
  local: Int32Array;
}

/** Composes a step's old→new indices onto the aggregate→current map. */
export function advance(state: EntityState, step: StepResult): EntityState {
  const map = state.map.map((index) => (index < 0 ? -1 : step.local[index]));
  return { entities: step.entities, map };
}

export function emptyStats(): FinalizeStats {
  return {
    entitiesIn: 0,
    relationshipsIn: 0,
    structuralDropped: 0,
    exactMerges: 0,
    semanticMerges: 0,
    semanticFallbacks: 0,
    hierarchicalMerges: 0,
    typesNormalized: 0,
    relationshipsDeduplicated: 0,
    selfLoopsDropped: 0,
    danglingDropped: 0,
    directionCorrected: 0,
    directionDropped: 0,
    strictTypeDropped: 0,
    cappedByRatio: 0,
    cappedByDegree: 0,
    cappedBySameSourceType: 0,
    orphansDropped: 0,
    inversesAdded: 0,
  };
}

/** Keeps the entities `keep` accepts, in order, and says where each one went. */
export function keepEntities(entities: WorkEntity[], keep: (entity: WorkEntity, index: number) => boolean): StepResult {
  const local = new Int32Array(entities.length).fill(-1);
  const kept: WorkEntity[] = [];
  entities.forEach((entity, index) => {
    if (!keep(entity, index)) return;
    local[index] = kept.length;
    kept.push(entity);
  });
  return { entities: kept, local };
}
