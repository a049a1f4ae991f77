/**
 * Words and their random index vectors, the fixed basis of the corpus model (model.ts). A word's index
 * vector is sparse and ternary: `nonZeros` components of ±1/√nonZeros at positions drawn from the word and
 * the seed, so any two words' vectors are nearly orthogonal and a word always gets the same one for a seed
 * (random indexing, Kanerva et al. 2000).
 */

/** Components of the corpus part of a vector. 100 left too little room: 2Wiki all-evidence@8 0.20 against 0.35 at 256. */
export const corpusDimensions = 256;
const nonZeros = 8;
const unit = 1 / Math.sqrt(nonZeros);

/** Lower-cased runs of letters and digits with their counts, in order of first occurrence. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [term] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** The index vector of `term` under `seed`: `nonZeros` (position, sign) pairs, as positions with the sign in bit 15. */
export function indexVector(term: string, seed: number): Uint16Array {
  let state = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < term.length; i++) state = Math.imul(state ^ term.charCodeAt(i), 0x01000193);
  const entries = new Uint16Array(nonZeros);
  for (let k = 0; k < nonZeros; k++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const random = (t ^ (t >>> 14)) >>> 0;
    entries[k] = (random % corpusDimensions) | (random & 0x10000 ? 0x8000 : 0);
  }
  return entries;
}

/** Adds `factor` × the index vector `entries` to `into`. */
export function addIndexVector(into: Float32Array | Float64Array, entries: Uint16Array, factor: number): void {
  for (const entry of entries) into[entry & 0x7fff] += entry & 0x8000 ? -unit * factor : unit * factor;
}
