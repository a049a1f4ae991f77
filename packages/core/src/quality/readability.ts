import type { EntityQualityScoreBody, RelationshipQualityScoreBody } from '@rhizome/contracts/api/quality';
import { places } from '../providers/index.ts';
import { isDemonym } from '../providers/index.ts';
import { round4 } from './steps.ts';

/**
 * What a reader sees in a graph and the rest of the formula does not: entities named like a section
 * heading or a bare generic word ("Early", "Legacy", "Return"), nationalities as entities ("French"),
 * names typed against what they plainly are ("Indiana" a Person), and links that say nothing but
 * "related to". Such items are scored down (score-source.ts), so a graph made mostly of them cannot
 * grade Good.
 */

const headingWords = new Set([
  'early',
  'early life',
  'life',
  'legacy',
  'return',
  'career',
  'background',
  'introduction',
  'overview',
  'summary',
  'conclusion',
  'history',
  'biography',
  'personal life',
  'death',
  'later life',
  'later years',
  'marriage',
  'education',
  'family',
  'works',
  'awards',
  'honours',
  'honors',
  'references',
  'notes',
  'see also',
  'contents',
  'abstract',
  'discussion',
  'results',
  'methods',
  'appendix',
  'chapter',
  'section',
  'part',
  'elder',
  'younger',
  'spelling',
  'victim',
  'reception',
  'plot',
  'cast',
  'production',
  'release',
  'aftermath',
  'origins',
  'beginnings',
]);

const personTypes = /person|people|individual|human|character/i;

/** Why an entity reads badly, or null when it does not. */
export function unreadableEntity(name: string, type: string): 'heading' | 'demonym' | 'type_conflict' | null {
  const key = name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
  if (headingWords.has(key)) return 'heading';
  if (isDemonym(name)) return 'demonym';
  if (places.has(key) && personTypes.test(type)) return 'type_conflict';
  return null;
}

/** A link that names no relation. */
export function isGenericLink(type: string): boolean {
  return /^(?:related[\s_-]?to|link|relates[\s_-]?to|associated[\s_-]?with)$/i.test(type.trim());
}

/** An unreadable entity earns nothing for its confidence or its type: the extractor was sure of the wrong thing. */
export function scoreUnreadable(score: EntityQualityScoreBody): EntityQualityScoreBody {
  const total = score.description_score + score.cross_chunk_score + score.properties_score + score.aliases_score;
  return { ...score, confidence_score: 0, type_value_score: 0, total_score: round4(total) };
}

/** A generic link earns no specificity (the caller passes 0) and half its confidence. */
export function scoreGenericLink(score: RelationshipQualityScoreBody): RelationshipQualityScoreBody {
  const confidence = round4(score.confidence_score / 2);
  return {
    ...score,
    confidence_score: confidence,
    total_score: round4(score.justification_score + confidence + score.specificity_score + score.valid_refs_score),
  };
}
