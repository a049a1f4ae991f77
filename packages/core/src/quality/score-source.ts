import type { SourceQualityDetailsBody } from '@rhizome/contracts/api/quality';
import { scoreEntity, type EntityFacts } from './entity.ts';
import { qualityGrade, qualityLabel } from './grade.ts';
import {
  duplicatePenalty,
  genericLinkPenalty,
  hubPenalty,
  hubSkew,
  pollutionPenalty,
  reciprocalPenalty,
  reciprocalRate,
  shareOf,
  structuralPenalty,
  vaguenessPenalty,
} from './penalties.ts';
import { scoreRelationship, type RelationshipFacts } from './relationship.ts';
import { connectivityRatio, countBelow, coverageScore, richness } from './source.ts';
import { isGenericLink, scoreGenericLink, scoreUnreadable, unreadableEntity } from './readability.ts';
import { mean, round4 } from './steps.ts';
import { densityRatio, densityScore, topologyScore } from './topology.ts';

/** One source's committed graph, as the score sees it. */
export interface SourceGraph {
  sourceId: string;
  title: string | null;
  domain: string | null;
  chunkCount: number;
  entities: (EntityFacts & { id: string })[];
  relationships: (Omit<RelationshipFacts, 'validRefs'> & { sourceNodeId: string; targetNodeId: string })[];
}

/** The domain's part of the formula, and the low-quality threshold. */
export interface ScoringParams {
  typeValue: number;
  specificity: number;
  targetDensity: number;
  lowQualityThreshold: number;
}

/** Every number field to four decimals (the item scores round their own). */
function rounded<T extends object>(value: T): T {
  const copy = { ...value } as Record<string, unknown>;
  for (const [key, field] of Object.entries(copy)) if (typeof field === 'number') copy[key] = round4(field);
  return copy as T;
}

/**
 * The whole formula over one source's graph: every item's score and the source's. `probableDuplicates`
 * are the entities proposed as probably one with another entity.
 */
export function scoreSource(
  graph: SourceGraph,
  params: ScoringParams,
  probableDuplicates: ReadonlySet<string> = new Set(),
): SourceQualityDetailsBody {
  const entityIds = new Set(graph.entities.map((entity) => entity.id));
  const degrees = new Map<string, number>();
  const relationshipScores = graph.relationships.map((edge) => {
    const sourceValid = entityIds.has(edge.sourceNodeId);
    const targetValid = entityIds.has(edge.targetNodeId);
    if (sourceValid) degrees.set(edge.sourceNodeId, (degrees.get(edge.sourceNodeId) ?? 0) + 1);
    if (targetValid) degrees.set(edge.targetNodeId, (degrees.get(edge.targetNodeId) ?? 0) + 1);
    const validRefs = ((sourceValid ? 1 : 0) + (targetValid ? 1 : 0)) as RelationshipFacts['validRefs'];
    const generic = isGenericLink(edge.type);
    const score = scoreRelationship(
      {
        type: edge.type,
        sourceName: edge.sourceName,
        targetName: edge.targetName,
        justificationLength: edge.justificationLength,
        confidence: edge.confidence,
        validRefs,
      },
      generic ? 0 : params.specificity,
    );
    return generic ? scoreGenericLink(score) : score;
  });
  const entityScores = graph.entities.map((entity) => {
    const score = scoreEntity(entity, params.typeValue);
    return unreadableEntity(entity.name, entity.type) ? scoreUnreadable(score) : score;
  });
  const entityTotals = entityScores.map((score) => score.total_score);
  const relationshipTotals = relationshipScores.map((score) => score.total_score);
  const entityCount = graph.entities.length;
  const relationshipCount = graph.relationships.length;

  const connectivity = connectivityRatio(degrees.size, entityCount);
  const ratio = densityRatio(relationshipCount, entityCount);
  const density = densityScore(ratio, params.targetDensity);
  const topology = topologyScore(connectivity, density);
  const lowEntities = countBelow(entityTotals, params.lowQualityThreshold);
  const lowRelationships = countBelow(relationshipTotals, params.lowQualityThreshold);
  const pollution = pollutionPenalty(lowEntities + lowRelationships, entityCount + relationshipCount);
  const skew = hubSkew([...degrees.values()]);
  const reciprocal = reciprocalRate(
    graph.relationships.map((edge) => ({ source: edge.sourceNodeId, target: edge.targetNodeId, type: edge.type })),
  );
  const structural = structuralPenalty(hubPenalty(skew, entityCount), reciprocalPenalty(reciprocal));
  const relatedToShare = shareOf(
    graph.relationships.filter((edge) => isGenericLink(edge.type)).length,
    relationshipCount,
  );
  const duplicateRate = shareOf(
    graph.entities.filter((entity) => probableDuplicates.has(entity.id)).length,
    entityCount,
  );
  const vagueness = vaguenessPenalty(genericLinkPenalty(relatedToShare), duplicatePenalty(duplicateRate));
  const avgEntityQuality = mean(entityTotals);
  const avgRelationshipQuality = mean(relationshipTotals);
  // Labelled as reported, so a grade shown as 85 is never labelled Excellent.
  const grade = round4(
    qualityGrade({
      entityCount,
      relationshipCount,
      avgEntityQuality,
      avgRelationshipQuality,
      topology,
      pollutionPenalty: pollution,
      structuralPenalty: structural,
      vaguenessPenalty: vagueness,
    }),
  );

  return {
    ...rounded({
      source_id: graph.sourceId,
      source_title: graph.title,
      domain: graph.domain,
      entity_count: entityCount,
      relationship_count: relationshipCount,
      ...richness(entityTotals, relationshipTotals, degrees.size),
      avg_entity_quality: avgEntityQuality,
      avg_relationship_quality: avgRelationshipQuality,
      connectivity_ratio: connectivity,
      quality_grade: grade,
      quality_label: qualityLabel(grade),
      low_quality_entity_count: lowEntities,
      low_quality_relationship_count: lowRelationships,
      density_ratio: ratio,
      density_score: density,
      topology_score: topology,
      pollution_penalty: pollution,
      structural_penalty: structural,
      hub_skew: skew,
      reciprocal_rate: reciprocal,
      coverage_score: coverageScore(entityCount, graph.chunkCount),
      related_to_share: relatedToShare,
      duplicate_rate: duplicateRate,
      vagueness_penalty: vagueness,
    }),
    entity_scores: entityScores,
    relationship_scores: relationshipScores,
  };
}
