import type { DomainDefinition } from '../../sources/index.ts';
import type { AttemptRecorder } from '../attempts/recorder.ts';
import type { GroupSentence, HarvestedEntity, HarvestedRelationship, HarvestStats } from '../types.ts';
import { matchEdgeType } from './edge-types.ts';
import type { PassItem } from './passes.ts';
import { evidenceFor, validRefs } from './sentences.ts';
import { mentionsAny } from './text-match.ts';

/**
 * The relationship pass's R lines as relationships between the surviving entities (the guard already
 * turned down indices outside the list; the parser, self-links). The type is matched to the domain's
 * edge templates (edge-types.ts); an unmatched type is kept as `none` in snake_case, or dropped when
 * edge types are strict. Evidence is the cited sentences that exist, else the sentences naming both
 * ends. The same (source, target, type) stated twice is one relationship: highest confidence, all
 * evidence, longest justification.
 */

export interface RelationshipInput {
  items: readonly PassItem[];
  entities: readonly HarvestedEntity[];
  sentences: readonly GroupSentence[];
  domain: DomainDefinition;
  strictEdgeTypes: boolean;
  stats: HarvestStats;
  recorder?: AttemptRecorder;
}

export function collectRelationships({
  items,
  entities,
  sentences,
  domain,
  strictEdgeTypes,
  stats,
  recorder,
}: RelationshipInput): HarvestedRelationship[] {
  const templateNames = domain.templates.edge_templates.map((template) => template.name);
  const byKey = new Map<string, HarvestedRelationship & { refs: number[] }>();
  for (const item of items) {
    if (item.kind !== 'relationship') continue;
    if (item.sourceIndex === item.targetIndex) continue;
    if (item.sourceIndex >= entities.length || item.targetIndex >= entities.length) continue;
    const match = matchEdgeType(item.type, templateNames);
    const [sourceIndex, targetIndex] = match.reversed
      ? [item.targetIndex, item.sourceIndex]
      : [item.sourceIndex, item.targetIndex];
    if (match.typeMatch === 'none') {
      stats.relationshipTypesUnmatched++;
      if (strictEdgeTypes) {
        stats.relationshipsDroppedStrictType++;
        recorder?.drop(
          'edge_type',
          'relationship',
          `${entities[sourceIndex].name} ${item.type} ${entities[targetIndex].name}`,
          'its type matches no edge template and edge types are strict',
        );
        continue;
      }
    }
    let refs = validRefs(sentences, item.sentenceRefs);
    if (refs.length === 0) {
      const [source, target] = [entities[sourceIndex], entities[targetIndex]];
      refs = sentences
        .filter(
          (sentence) =>
            mentionsAny(sentence.text, [source.name, ...source.aliases]) &&
            mentionsAny(sentence.text, [target.name, ...target.aliases]),
        )
        .map((sentence) => sentence.number);
    }
    const key = `${sourceIndex} ${targetIndex} ${match.type}`;
    const confidence = Math.min(1, Math.max(0, item.confidence));
    const previous = byKey.get(key);
    if (previous) {
      previous.confidence = Math.max(previous.confidence, confidence);
      previous.refs = [...new Set([...previous.refs, ...refs])].sort((a, b) => a - b);
      if (item.justification.length > previous.justification.length) previous.justification = item.justification;
      continue;
    }
    byKey.set(key, {
      sourceIndex,
      targetIndex,
      type: match.type,
      confidence,
      justification: item.justification,
      evidence: [],
      typeMatch: match.typeMatch,
      refs,
    });
  }
  return [...byKey.values()].map(({ refs, ...relationship }) => ({
    ...relationship,
    evidence: evidenceFor(sentences, refs),
  }));
}
