import type { RelationshipQualityScoreBody } from '@rhizome/contracts/api/quality';
import { clamp, round4, stepScore, type Steps } from './steps.ts';

/** What the relationship score looks at, for one relationship of one source. */
export interface RelationshipFacts {
  type: string;
  sourceName: string;
  targetName: string;
  justificationLength: number;
  /** 0..1; clamped. */
  confidence: number;
  /** How many of its two endpoints are entities of the source. */
  validRefs: 0 | 1 | 2;
}

/** The specificity when the domain gives none. */
export const defaultSpecificity = 15;
const maxSpecificity = 25;

const justificationSteps: Steps = [
  [50, 35],
  [40, 30],
  [25, 22],
  [10, 15],
];
const validRefsScores = [0, 8, 15] as const;

/** A relationship's score, 0–100: justification, confidence, the domain's specificity and valid endpoints. */
export function scoreRelationship(
  facts: RelationshipFacts,
  specificity = defaultSpecificity,
): RelationshipQualityScoreBody {
  const score = {
    relationship_type: facts.type,
    source_entity: facts.sourceName,
    target_entity: facts.targetName,
    justification_score: stepScore(facts.justificationLength, justificationSteps, 5),
    confidence_score: round4(clamp(facts.confidence, 0, 1) * 25),
    specificity_score: clamp(specificity, 0, maxSpecificity),
    valid_refs_score: validRefsScores[facts.validRefs],
    total_score: 0,
  };
  score.total_score = round4(
    score.justification_score + score.confidence_score + score.specificity_score + score.valid_refs_score,
  );
  return score;
}
