/** Topology: how densely the source's entities are related. */

/** Relationships per entity the domains aim at unless they say otherwise. */
export const defaultTargetDensity = 2.5;

export const densityRatio = (relationshipCount: number, entityCount: number) =>
  entityCount > 0 ? relationshipCount / entityCount : 0;

/** Bell-shaped around the target: rises linearly to 100 at the target, then falls by 50 per target's worth above it, to 0. */
export function densityScore(ratio: number, target = defaultTargetDensity): number {
  if (ratio <= target) return (ratio / target) * 100;
  return Math.max(0, 100 - ((ratio - target) / target) * 50);
}

/** T: the mean of connectivity (as 0–100) and the density score. */
export const topologyScore = (connectivity: number, density: number) => (connectivity * 100 + density) / 2;
