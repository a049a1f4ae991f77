/**
 * Step 4: entities whose texts embed alike are one entity. Cosine similarity of the entity texts, plus
 * bonuses for name evidence (+0.20 same name key, +0.15 for each name among the other's aliases, +0.10
 * for a shared alias; at most 1.0), against the threshold; 0.08 higher when the names and aliases of the
 * two share no word of three letters or more; a 0.05 confidence cost for a merge less than 0.10 above its
 * bar. Pairs are joined best first through union-find, so merges are transitive and a cluster's type is
 * checked at every join. If `embed` throws or returns unusable vectors the step is skipped (exact dedup
 * stands) and the caller counts a fallback.
 *
 * Above 50 entities only entities of the same type partition are compared (generic types against all):
 * 5,000 entities over ten types is about 1.3 million pairs, each a dot product that stops as soon as it
 * cannot reach the threshold (vectors.ts). Two names with different numbers ("Apollo 11", "Apollo 13")
 * never merge here.
 */
import { EntityClusters } from './clusters.ts';
import type { StepResult, WorkEntity } from './model.ts';
import { nameWords, normalizeNameKey, numbersConflict } from './names.ts';
import type { TypeResolver } from './entity-types.ts';
import { UnitVectors } from './vectors.ts';

export const MAX_ENTITY_TEXT = 16_000;
export const BONUS_SAME_NAME = 0.2;
export const BONUS_NAME_IN_ALIASES = 0.15;
export const BONUS_SHARED_ALIAS = 0.1;
export const NO_OVERLAP_RAISE = 0.08;
export const NEAR_THRESHOLD = 0.1;
export const NEAR_THRESHOLD_PENALTY = 0.05;
export const PARTITION_ABOVE = 50;

/** The text an entity is embedded by: `Name | Also known as: a; b | description | property values`. */
export function entityText(entity: Pick<WorkEntity, 'name' | 'aliases' | 'description' | 'properties'>): string {
  const parts = [entity.name];
  if (entity.aliases.length > 0) parts.push(`Also known as: ${entity.aliases.join('; ')}`);
  if (entity.description.length > 0) parts.push(entity.description);
  const values = Object.values(entity.properties).filter((value) => value.length > 0);
  if (values.length > 0) parts.push(values.join('; '));
  return parts.join(' | ').slice(0, MAX_ENTITY_TEXT);
}

interface Candidate {
  left: number;
  right: number;
  score: number;
  penalty: number;
}

/** Bonuses of pairs with name evidence, keyed `left * count + right` (left < right); other pairs have none. */
function nameBonuses(entities: readonly WorkEntity[], aliasKeys: readonly Set<string>[]): Map<number, number> {
  const count = entities.length;
  const holders = new Map<string, { names: number[]; aliases: number[] }>();
  const holder = (key: string) => {
    let found = holders.get(key);
    if (!found) holders.set(key, (found = { names: [], aliases: [] }));
    return found;
  };
  entities.forEach((entity, index) => {
    holder(entity.key).names.push(index);
    for (const key of aliasKeys[index]) holder(key).aliases.push(index);
  });
  const bonuses = new Map<number, number>();
  const pairs = new Set<number>();
  for (const { names, aliases } of holders.values()) {
    const members = [...new Set([...names, ...aliases])];
    if (members.length < 2 || members.length > 200) continue; // A key on hundreds of entities is no evidence.
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        const [left, right] = members[a] < members[b] ? [members[a], members[b]] : [members[b], members[a]];
        pairs.add(left * count + right);
      }
    }
  }
  for (const pair of pairs) {
    const left = Math.floor(pair / count);
    const right = pair % count;
    const [a, b] = [entities[left], entities[right]];
    let bonus = 0;
    if (a.key === b.key) bonus += BONUS_SAME_NAME;
    if (aliasKeys[right].has(a.key)) bonus += BONUS_NAME_IN_ALIASES;
    if (aliasKeys[left].has(b.key)) bonus += BONUS_NAME_IN_ALIASES;
    for (const key of aliasKeys[left]) {
      if (aliasKeys[right].has(key)) {
        bonus += BONUS_SHARED_ALIAS;
        break;
      }
    }
    if (bonus > 0) bonuses.set(pair, bonus);
  }
  return bonuses;
}

/** Lists of entity indices to compare: within each list, and between each `[left, right]` pair of lists. */
interface Comparisons {
  within: number[][];
  across: [number[], number[]][];
}

function comparisons(count: number, generic: readonly boolean[], identity: readonly string[]): Comparisons {
  const all = Array.from({ length: count }, (_value, index) => index);
  if (count <= PARTITION_ABOVE) return { within: [all], across: [] };
  const generics: number[] = [];
  const specific: number[] = [];
  const partitions = new Map<string, number[]>();
  for (const index of all) {
    if (generic[index]) {
      generics.push(index);
      continue;
    }
    specific.push(index);
    const partition = partitions.get(identity[index]);
    if (partition) partition.push(index);
    else partitions.set(identity[index], [index]);
  }
  return {
    within: [...partitions.values(), generics],
    across: generics.length > 0 && specific.length > 0 ? [[generics, specific]] : [],
  };
}

export interface SemanticOptions {
  threshold: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export type SemanticOutcome =
  { step: StepResult; merges: number; fellBack: false } | { step: null; merges: 0; fellBack: true };

export async function semanticDedup(
  entities: WorkEntity[],
  types: TypeResolver,
  options: SemanticOptions,
): Promise<SemanticOutcome> {
  const count = entities.length;
  if (count < 2)
    return {
      step: { entities, local: Int32Array.from(entities, (_entity, index) => index) },
      merges: 0,
      fellBack: false,
    };
  let vectors: UnitVectors | null;
  try {
    vectors = UnitVectors.from(await options.embed(entities.map(entityText)), count);
  } catch {
    vectors = null;
  }
  if (!vectors) return { step: null, merges: 0, fellBack: true };
  const unit = vectors;

  const threshold = options.threshold;
  const generic = entities.map((entity) => types.isGeneric(entity.type));
  const identity = entities.map((entity) => types.identity(entity.type));
  const compatible = (a: number, b: number) => generic[a] || generic[b] || identity[a] === identity[b];
  const aliasKeys = entities.map((entity) => new Set(entity.aliases.map((alias) => normalizeNameKey(alias))));
  const bonuses = nameBonuses(entities, aliasKeys);
  const words = entities.map(
    (entity, index) => new Set([entity.key, ...aliasKeys[index]].flatMap(nameWords).filter((word) => word.length >= 3)),
  );
  const candidates: Candidate[] = [];

  const consider = (a: number, b: number, cosine: number) => {
    const [left, right] = a < b ? [a, b] : [b, a];
    if (!compatible(left, right)) return;
    const score = Math.min(1, cosine + (bonuses.get(left * count + right) ?? 0));
    if (score < threshold) return;
    let overlap = false;
    for (const word of words[left]) {
      if (words[right].has(word)) {
        overlap = true;
        break;
      }
    }
    const bar = threshold + (overlap ? 0 : NO_OVERLAP_RAISE);
    if (score < bar || numbersConflict(entities[left].name, entities[right].name, false)) return;
    candidates.push({ left, right, score, penalty: score < bar + NEAR_THRESHOLD ? NEAR_THRESHOLD_PENALTY : 0 });
  };

  // A pair's raw cosine must reach the threshold unless a name bonus lifts it: those few pairs are scored apart.
  const { within, across } = comparisons(count, generic, identity);
  for (const rows of within) unit.pairsWithin(rows, threshold, consider);
  for (const [lefts, rights] of across) unit.pairsAcross(lefts, rights, threshold, consider);
  for (const pair of bonuses.keys()) {
    const left = Math.floor(pair / count);
    const right = pair % count;
    const cosine = unit.dot(left, right);
    // At or above the threshold the pair was scored above, if its types allow it at all.
    if (cosine < threshold) consider(left, right, cosine);
  }

  candidates.sort((x, y) => y.score - x.score || x.left - y.left || x.right - y.right);
  const clusters = new EntityClusters(entities, types);
  let merges = 0;
  for (const candidate of candidates) {
    if (clusters.join(candidate.left, candidate.right, candidate.penalty)) merges++;
  }
  return { step: clusters.result(), merges, fellBack: false };
}
