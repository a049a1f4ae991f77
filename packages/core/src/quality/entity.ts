import type { EntityQualityScoreBody } from '@rhizome/contracts/api/quality';
import { clamp, round4, stepScore, type Steps } from './steps.ts';

/** What the entity score looks at, for one entity of one source. */
export interface EntityFacts {
  name: string;
  type: string;
  descriptionLength: number;
  /** 0..1; clamped. */
  confidence: number;
  /** Distinct chunks of the source citing the entity. */
  chunkCount: number;
  /** The entity's own properties (not the extraction's bookkeeping). */
  propertyCount: number;
  aliasCount: number;
}

/** The type value when the domain gives none. */
export const defaultTypeValue = 18;
const maxTypeValue = 25;

const descriptionSteps: Steps = [
  [250, 20],
  [150, 17],
  [100, 14],
  [50, 10],
  [20, 6],
];
const crossChunkSteps: Steps = [
  [5, 15],
  [3, 12],
  [2, 8],
];
const propertySteps: Steps = [
  [7, 15],
  [5, 13],
  [3, 10],
  [2, 7],
  [1, 4],
];
const aliasSteps: Steps = [
  [3, 10],
  [2, 8],
  [1, 5],
];

/** An entity's score, 0–100: description, confidence, cross-chunk mentions, properties, aliases and the domain's value of its type. */
export function scoreEntity(facts: EntityFacts, typeValue = defaultTypeValue): EntityQualityScoreBody {
  const score = {
    entity_name: facts.name,
    entity_type: facts.type,
    description_score: stepScore(facts.descriptionLength, descriptionSteps, 3),
    confidence_score: round4(clamp(facts.confidence, 0, 1) * 15),
    cross_chunk_score: stepScore(facts.chunkCount, crossChunkSteps, 7),
    properties_score: stepScore(facts.propertyCount, propertySteps, 0),
    aliases_score: stepScore(facts.aliasCount, aliasSteps, 0),
    type_value_score: clamp(typeValue, 0, maxTypeValue),
    total_score: 0,
  };
  score.total_score = round4(
    score.description_score +
      score.confidence_score +
      score.cross_chunk_score +
      score.properties_score +
      score.aliases_score +
      score.type_value_score,
  );
  return score;
}
