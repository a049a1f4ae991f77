/**
 * Step 1: the groups' harvests as one list. Entity indices are local to their group and become global
 * by offset; duplicate relationships of a group (same endpoints and type) become one, at the highest
 * confidence with their evidence joined. Entities without a name, and relationships pointing at no
 * entity of their group, go here.
 */
import type { FinalizeStats, GroupHarvest, HarvestedEntity, HarvestedRelationship } from '../types.ts';
import { cleanAliases } from './aliases.ts';
import { edgeTypeKey } from './edges.ts';
import { unionEvidence } from './merge.ts';
import type { EntityState, WorkEntity, WorkRelationship } from './model.ts';
import { normalizeNameKey } from './names.ts';

export interface Aggregate {
  state: EntityState;
  /** Endpoints are aggregate indices (what `state.map` maps from). */
  relationships: WorkRelationship[];
}

const unit = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

function toEntity(entity: HarvestedEntity, order: number, minAliasLength: number): WorkEntity {
  const name = entity.name.trim().replace(/\s+/g, ' ');
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(entity.properties ?? {})) {
    if (typeof value === 'string' && value.trim().length > 0) properties[key] = value.trim();
  }
  return {
    order,
    key: normalizeNameKey(name),
    name,
    type: (entity.type ?? '').trim(),
    typeNormalizedFrom: null,
    aliases: cleanAliases(name, entity.aliases ?? [], minAliasLength),
    description: (entity.description ?? '').trim(),
    confidence: unit(entity.confidence),
    properties,
    mergedPropertyHistory: {},
    evidence: unionEvidence(entity.evidence ?? [], []),
  };
}

function toRelationship(
  relationship: HarvestedRelationship,
  source: number,
  target: number,
  order: number,
): WorkRelationship {
  return {
    order,
    sourceIndex: source,
    targetIndex: target,
    type: edgeTypeKey(relationship.type),
    confidence: unit(relationship.confidence),
    justification: (relationship.justification ?? '').trim(),
    evidence: unionEvidence(relationship.evidence ?? [], []),
    directionCorrected: false,
    inverseOf: null,
  };
}

export function aggregate(harvests: readonly GroupHarvest[], minAliasLength: number, stats: FinalizeStats): Aggregate {
  const entities: WorkEntity[] = [];
  const map: number[] = [];
  const relationships: WorkRelationship[] = [];
  let aggregateIndex = 0;
  for (const harvest of harvests) {
    const offset = aggregateIndex;
    stats.entitiesIn += harvest.entities.length;
    stats.relationshipsIn += harvest.relationships.length;
    for (const harvested of harvest.entities) {
      const entity = toEntity(harvested, aggregateIndex++, minAliasLength);
      map.push(entity.key.length > 0 ? entities.length : -1);
      if (entity.key.length > 0) entities.push(entity);
    }
    const byTriple = new Map<string, WorkRelationship>();
    for (const harvested of harvest.relationships) {
      const { sourceIndex: source, targetIndex: target } = harvested;
      const valid = (index: number) => Number.isInteger(index) && index >= 0 && index < harvest.entities.length;
      if (!valid(source) || !valid(target)) {
        stats.danglingDropped++;
        continue;
      }
      const relationship = toRelationship(harvested, offset + source, offset + target, relationships.length);
      const triple = `${relationship.sourceIndex}\u0000${relationship.targetIndex}\u0000${relationship.type}`;
      const kept = byTriple.get(triple);
      if (!kept) {
        byTriple.set(triple, relationship);
        relationships.push(relationship);
        continue;
      }
      stats.relationshipsDeduplicated++;
      if (relationship.confidence > kept.confidence) {
        kept.confidence = relationship.confidence;
        kept.justification = relationship.justification;
      }
      kept.evidence = unionEvidence(kept.evidence, relationship.evidence);
    }
  }
  return { state: { entities, map: Int32Array.from(map) }, relationships };
}
