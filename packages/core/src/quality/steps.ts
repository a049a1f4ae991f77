/** `[minimum, score]` steps, highest minimum first: the score of the first step the value reaches. */
export type Steps<T = number> = readonly (readonly [minimum: number, score: T])[];

export function stepScore<T>(value: number, steps: Steps<T>, otherwise: T): T {
  for (const [minimum, score] of steps) if (value >= minimum) return score;
  return otherwise;
}

export const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Mean of the values; 0 for none. */
export const mean = (values: readonly number[]) =>
  values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;

/** Scores are reported to four decimals: no float noise such as 63.300000000000004. */
export const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
