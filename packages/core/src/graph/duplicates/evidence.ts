import type { EvidenceKind } from '@rhizome/contracts/api/duplicates';
import { sameKindOfThing } from '../type-kinds.ts';
import { round } from './name-match.ts';

/** What one finding says about two nodes being one entity; a negative weight speaks against it. */
export interface Evidence {
  kind: EvidenceKind;
  detail: string;
  weight: number;
}

/** Templates that type nothing in particular: compatible with every other. */
export const genericTemplateIds = new Set(['system_template_item']);

/** Shared neighbours: the more of their neighbourhoods two nodes share, the likelier one entity. */
export function neighbourEvidence(shared: string[], unionSize: number): Evidence | null {
  if (!shared.length || !unionSize) return null;
  const jaccard = shared.length / unionSize;
  const named = shared.slice(0, 3).join(', ') + (shared.length > 3 ? ', …' : '');
  return {
    kind: 'shared_neighbours',
    detail: `${shared.length} shared neighbour${shared.length === 1 ? '' : 's'} (${named})`,
    weight: round(Math.min(0.35, 0.1 + 0.5 * jaccard)),
  };
}

/** Vectors of the same model, close in angle; below the floor they say nothing either way. */
export function vectorEvidence(cosine: number): Evidence | null {
  const floor = 0.8;
  if (cosine < floor) return null;
  return {
    kind: 'vector',
    detail: `vector similarity ${cosine.toFixed(2)}`,
    weight: round(Math.min(0.3, (cosine - floor) * 1.5)),
  };
}

/**
 * The same type adds a little, a generic one is neutral, as are two names of one kind of thing; two
 * different specific types count against.
 */
export function typeEvidence(templates: [{ id: string; name: string }, { id: string; name: string }]): Evidence {
  const [a, b] = templates;
  if (a.id === b.id) {
    return genericTemplateIds.has(a.id)
      ? { kind: 'type', detail: `both ${a.name}`, weight: 0 }
      : { kind: 'type', detail: `both ${a.name}`, weight: 0.1 };
  }
  if (genericTemplateIds.has(a.id) || genericTemplateIds.has(b.id)) {
    return { kind: 'type', detail: `${a.name} and ${b.name} are compatible`, weight: 0 };
  }
  if (sameKindOfThing(a.name, b.name)) {
    return { kind: 'type', detail: `${a.name} and ${b.name} are one kind of thing`, weight: 0.05 };
  }
  return { kind: 'type', detail: `${a.name} and ${b.name} are different types`, weight: -0.35 };
}

/** The evidence combined: positive findings as a noisy-or (independent chances of being right), negatives subtracted. */
export function scoreOf(evidence: Evidence[]): number {
  let missing = 1;
  let against = 0;
  for (const { weight } of evidence) {
    if (weight > 0) missing *= 1 - weight;
    else against += weight;
  }
  return round(Math.min(1, Math.max(0, 1 - missing + against)));
}

export function cosineOf(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index] * b[index];
    normA += a[index] * a[index];
    normB += b[index] * b[index];
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}
