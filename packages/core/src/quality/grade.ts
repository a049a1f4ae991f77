import { qualityLabelOf } from '@rhizome/contracts/quality-bands';
import { clamp } from './steps.ts';

/**
 * The formula's version: cached scores of another version are outdated. 8 scores down what reads
 * badly (readability.ts) on top of v7; 9 subtracts the vagueness penalty (a large share of "related to"
 * links, entities proposed as probable duplicates).
 */
export const scoringVersion = 9;

export interface GradeInputs {
  entityCount: number;
  relationshipCount: number;
  avgEntityQuality: number;
  avgRelationshipQuality: number;
  topology: number;
  pollutionPenalty: number;
  structuralPenalty: number;
  vaguenessPenalty: number;
}

/**
 * 0–100, independent of volume: 0.50 R + 0.35 E + 0.15 T with relationships, 0.55 E + 0.45 T without,
 * less the penalties. A source without entities grades 0.
 */
export function qualityGrade(inputs: GradeInputs): number {
  if (inputs.entityCount === 0) return 0;
  const weighted =
    inputs.relationshipCount > 0
      ? 0.5 * inputs.avgRelationshipQuality + 0.35 * inputs.avgEntityQuality + 0.15 * inputs.topology
      : 0.55 * inputs.avgEntityQuality + 0.45 * inputs.topology;
  return clamp(weighted - inputs.pollutionPenalty - inputs.structuralPenalty - inputs.vaguenessPenalty, 0, 100);
}

export const qualityLabel = qualityLabelOf;
