/**
 * How two entities become one (step 6), whichever dedup step decided they are the same: the canonical
 * name, aliases, description, confidence, properties with their history, and evidence.
 */
import { mergeAliases } from '../../graph/index.ts';
import type { Evidence } from '../types.ts';
import type { WorkEntity } from './model.ts';
import { contentWords, coversName, normalizeNameKey } from './names.ts';

export const MAX_DESCRIPTION = 8_000;
export const CONFIDENCE_FLOOR = 0.1;

/** Union of evidence, first occurrence kept, one item per (chunk, start). */
export function unionEvidence(left: readonly Evidence[], right: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>();
  const out: Evidence[] = [];
  for (const item of [...left, ...right]) {
    const key = `${item.chunkId}\u0000${item.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

const descriptionWords = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Cuts text to `max` characters, at a word boundary when one lies in the last tenth. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return (space > max * 0.9 ? cut.slice(0, space) : cut).trimEnd();
}

/**
 * Two descriptions of one entity: when more than half of the shorter one's words occur in the other they
 * say the same thing and the longer is kept; otherwise both are kept, joined by ". ", within 8,000 characters.
 */
export function mergeDescriptions(older: string, newer: string): string {
  const a = older.trim();
  const b = newer.trim();
  if (a.length === 0 || b.length === 0 || a === b) return cap(a.length >= b.length ? a : b, MAX_DESCRIPTION);
  const wordsA = descriptionWords(a);
  const wordsB = descriptionWords(b);
  let shared = 0;
  for (const word of wordsA) if (wordsB.has(word)) shared++;
  const smaller = Math.min(wordsA.size, wordsB.size);
  if (smaller > 0 && shared / smaller > 0.5) return cap(b.length > a.length ? b : a, MAX_DESCRIPTION);
  return cap(`${a.replace(/[\s.]+$/, '')}. ${b}`, MAX_DESCRIPTION);
}

const sameValue = (left: string, right: string) =>
  left.trim().replace(/\s+/g, ' ').toLowerCase() === right.trim().replace(/\s+/g, ' ').toLowerCase();

function pushHistory(history: string[], value: string, current: string): void {
  if (value.trim().length > 0 && !sameValue(value, current) && !history.some((kept) => sameValue(kept, value)))
    history.push(value);
}

/**
 * Properties of the older and the newer entity: the newer value of a key wins, the older differing value
 * goes to the key's history (oldest first; values equal but for case and spacing are one value).
 */
export function mergeProperties(
  older: WorkEntity,
  newer: WorkEntity,
): Pick<WorkEntity, 'properties' | 'mergedPropertyHistory'> {
  const properties: Record<string, string> = { ...older.properties, ...newer.properties };
  const history: Record<string, string[]> = {};
  const keys = new Set([
    ...Object.keys(older.mergedPropertyHistory),
    ...Object.keys(newer.mergedPropertyHistory),
    ...Object.keys(properties),
  ]);
  for (const key of keys) {
    const current = properties[key] ?? '';
    const values: string[] = [];
    for (const value of older.mergedPropertyHistory[key] ?? []) pushHistory(values, value, current);
    if (key in older.properties) pushHistory(values, older.properties[key], current);
    for (const value of newer.mergedPropertyHistory[key] ?? []) pushHistory(values, value, current);
    if (values.length > 0) history[key] = values;
  }
  return { properties, mergedPropertyHistory: history };
}

/** Prefers a name written with capitals and diacritics over a flattened spelling of the same key. */
function surfaceScore(name: string): number {
  const cased = name !== name.toLowerCase() && name !== name.toUpperCase() ? 2 : 0;
  const marked = name.normalize('NFD') !== name.normalize('NFC') ? 1 : 0;
  return cased + marked;
}

/**
 * Which of two names a merge keeps (`older` wins ties): the fuller one when one's content words contain
 * the other's ("Marie Curie" over "Curie" and "M. Curie"; "Dr. Marie Curie" over "Marie Curie"); else
 * the one whose entity lists the other as an alias (the model said which is the name); else, for the
 * same key, the better-written spelling; else the older.
 */
export function preferredName(older: WorkEntity, newer: WorkEntity): string {
  const olderWords = contentWords(older.key);
  const newerWords = contentWords(newer.key);
  const newerCoversOlder = coversName(newerWords, olderWords, 0);
  const olderCoversNewer = coversName(olderWords, newerWords, 0);
  if (newerCoversOlder && !olderCoversNewer) return newer.name;
  if (olderCoversNewer && !newerCoversOlder) return older.name;
  if (newerCoversOlder && older.key !== newer.key)
    return newer.name.length > older.name.length ? newer.name : older.name;
  const olderListsNewer = older.aliases.some((alias) => normalizeNameKey(alias) === newer.key);
  const newerListsOlder = newer.aliases.some((alias) => normalizeNameKey(alias) === older.key);
  if (newerListsOlder && !olderListsNewer) return newer.name;
  if (older.key === newer.key && surfaceScore(newer.name) > surfaceScore(older.name)) return newer.name;
  return older.name;
}

export interface MergeOptions {
  /** Taken off the merged confidence (a near-threshold semantic merge), never below the floor. */
  penalty?: number;
  /** The merged type; the caller knows which of two compatible types is the specific one. */
  type: string;
}

/** One entity from two; the one seen first (`order`) is the older. Neither input is changed. */
export function mergeEntities(left: WorkEntity, right: WorkEntity, options: MergeOptions): WorkEntity {
  const [older, newer] = left.order <= right.order ? [left, right] : [right, left];
  const name = preferredName(older, newer);
  const aliases = mergeAliases(name, [...older.aliases, ...newer.aliases, older.name, newer.name]);
  const best = Math.max(older.confidence, newer.confidence);
  const penalised = best - (options.penalty ?? 0);
  return {
    order: older.order,
    key: normalizeNameKey(name),
    name,
    type: options.type,
    typeNormalizedFrom: older.typeNormalizedFrom ?? newer.typeNormalizedFrom,
    aliases,
    description: mergeDescriptions(older.description, newer.description),
    // The penalty never takes a merge below the floor; an entity already below it keeps its own value.
    confidence: Math.max(Math.min(best, CONFIDENCE_FLOOR), penalised),
    ...mergeProperties(older, newer),
    evidence: unionEvidence(older.evidence, newer.evidence),
  };
}
