/** Penalties, each 0–15, subtracted from the grade. */

const maxPenalty = 15;

/** 5 points per full 10% of low-quality items among all entities and relationships. */
export function pollutionPenalty(lowQualityItems: number, totalItems: number): number {
  if (totalItems <= 0) return 0;
  // Whole tenths in integer arithmetic: 3 of 10 is exactly 30%, never 29.999…%.
  const tenths = Math.floor((lowQualityItems * 10) / totalItems);
  return Math.min(maxPenalty, 5 * tenths);
}

/** Maximum degree over median degree of the connected entities; 1 when none is connected. */
export function hubSkew(degrees: readonly number[]): number {
  const connected = degrees.filter((degree) => degree > 0).sort((a, b) => a - b);
  if (!connected.length) return 1;
  const middle = connected.length >> 1;
  const median = connected.length % 2 ? connected[middle] : (connected[middle - 1] + connected[middle]) / 2;
  return connected[connected.length - 1] / median;
}

const hubMinEntities = 10;
const hubSkewAllowed = 3;

/** Counts only for sources of at least 10 entities with a skew above 3: 2 points per unit above 3, at most 10. */
export function hubPenalty(skew: number, entityCount: number): number {
  if (entityCount < hubMinEntities || skew <= hubSkewAllowed) return 0;
  return Math.min(10, (skew - hubSkewAllowed) * 2);
}

export interface DirectedEdge {
  source: string;
  target: string;
  type: string;
}

/** Share of (s, t, type) edges whose reverse (t, s, type) is also an edge; 0 without edges. */
export function reciprocalRate(edges: readonly DirectedEdge[]): number {
  if (!edges.length) return 0;
  const key = (from: string, to: string, type: string) => `${from}\u0000${to}\u0000${type}`;
  const present = new Set(edges.map((edge) => key(edge.source, edge.target, edge.type)));
  const reciprocated = edges.filter((edge) => present.has(key(edge.target, edge.source, edge.type))).length;
  return reciprocated / edges.length;
}

const reciprocalAllowed = 0.1;

/** Above 10% reciprocal edges: 50 points per unit of rate above 0.10, at most 10. */
export function reciprocalPenalty(rate: number): number {
  if (rate <= reciprocalAllowed) return 0;
  return Math.min(10, (rate - reciprocalAllowed) * 50);
}

/** Hub and reciprocal penalties summed, capped at 15. */
export const structuralPenalty = (hub: number, reciprocal: number) => Math.min(maxPenalty, hub + reciprocal);

const genericLinksAllowed = 0.2;

/** Above 20% of relationships typed only "related to": 12.5 points per unit of share above 0.20, at most 10. */
export function genericLinkPenalty(share: number): number {
  if (share <= genericLinksAllowed) return 0;
  return Math.min(10, (share - genericLinksAllowed) * 12.5);
}

const duplicatesAllowed = 0.05;

/** Above 5% of entities proposed as probable duplicates: 40 points per unit of rate above 0.05, at most 10. */
export function duplicatePenalty(rate: number): number {
  if (rate <= duplicatesAllowed) return 0;
  return Math.min(10, (rate - duplicatesAllowed) * 40);
}

/** The "related to" and duplicate penalties summed, capped at 15. */
export const vaguenessPenalty = (genericLinks: number, duplicates: number) =>
  Math.min(maxPenalty, genericLinks + duplicates);

/** A part of a whole, 0 when the whole is empty. */
export const shareOf = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
