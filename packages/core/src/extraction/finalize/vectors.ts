/**
 * Unit vectors for the semantic comparisons, with an exact early exit. Each unit row u is stored as its
 * component along the rows' mean direction m and the rest: u = p·m + r, so u·v = p_u·p_v + r_u·r_v.
 * Embeddings share a common direction (texts of one source look alike), which p takes out, leaving
 * residuals of smaller norm. After each block of residual dimensions the rest of the dot product is at
 * most the product of the two rows' remaining norms (Cauchy–Schwarz), so a pair that cannot reach the
 * bar is abandoned there, usually after a few blocks. Residual dimensions are ordered by energy,
 * largest first, so the remaining norms shrink fast. Nothing is approximated: a pair is only skipped
 * when its cosine is provably below the bar.
 */

const BLOCK = 16;
/** Float32 rounding in the bound; a pair this close to the bar is computed in full. */
const SLACK = 1e-5;

export type PairHit = (left: number, right: number, cosine: number) => void;

export class UnitVectors {
  private constructor(
    readonly count: number,
    readonly dimension: number,
    /** Each row's component along the mean direction. */
    private readonly along: Float64Array,
    /** The residuals, row-major, dimensions in energy order. */
    private readonly matrix: Float32Array,
    /** `tails[row * stride + block]`: the norm of the residual from `block * BLOCK` on. */
    private readonly tails: Float64Array,
    private readonly stride: number,
  ) {}

  /** The vectors normalised, or null when they are unusable (wrong count, mixed or zero dimensions, non-finite values). */
  static from(vectors: unknown, count: number): UnitVectors | null {
    if (!Array.isArray(vectors) || vectors.length !== count || count === 0) return null;
    const rows: ArrayLike<number>[] = [];
    for (const vector of vectors as unknown[]) {
      if (!ArrayBuffer.isView(vector) && !Array.isArray(vector)) return null;
      rows.push(vector as ArrayLike<number>);
    }
    const dimension = rows[0].length;
    if (dimension === 0 || rows.some((row) => row.length !== dimension)) return null;

    // Each row's scale to unit length (zero rows stay zero) and the unit rows' mean direction.
    const scales = new Float64Array(count);
    const mean = new Float64Array(dimension);
    for (let row = 0; row < count; row++) {
      const values = rows[row];
      let norm = 0;
      for (let k = 0; k < dimension; k++) norm += values[k] * values[k];
      // NaN and infinities (of a value or of the sum) make the norm non-finite.
      if (!Number.isFinite(norm)) return null;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      scales[row] = scale;
      for (let k = 0; k < dimension; k++) mean[k] += values[k] * scale;
    }
    let meanNorm = 0;
    for (let k = 0; k < dimension; k++) meanNorm += mean[k] * mean[k];
    meanNorm = Math.sqrt(meanNorm);
    for (let k = 0; k < dimension; k++) mean[k] = meanNorm > 1e-9 ? mean[k] / meanNorm : 0;

    // Components along the mean, and the residuals' energy per dimension.
    const along = new Float64Array(count);
    const energy = new Float64Array(dimension);
    for (let row = 0; row < count; row++) {
      const values = rows[row];
      const scale = scales[row];
      let p = 0;
      for (let k = 0; k < dimension; k++) p += values[k] * scale * mean[k];
      along[row] = p;
      for (let k = 0; k < dimension; k++) {
        const rest = values[k] * scale - p * mean[k];
        energy[k] += rest * rest;
      }
    }
    const order = Int32Array.from({ length: dimension }, (_value, k) => k).sort(
      (a, b) => energy[b] - energy[a] || a - b,
    );

    // The residuals in energy order, and their remaining norms block by block.
    const matrix = new Float32Array(count * dimension);
    const blocks = Math.ceil(dimension / BLOCK);
    const stride = blocks + 1;
    const tails = new Float64Array(count * stride);
    for (let row = 0; row < count; row++) {
      const values = rows[row];
      const scale = scales[row];
      const p = along[row];
      const offset = row * dimension;
      for (let k = 0; k < dimension; k++) {
        const from = order[k];
        matrix[offset + k] = values[from] * scale - p * mean[from];
      }
      let rest = 0;
      for (let block = blocks - 1; block >= 0; block--) {
        const end = Math.min(dimension, (block + 1) * BLOCK);
        for (let k = block * BLOCK; k < end; k++) rest += matrix[offset + k] * matrix[offset + k];
        tails[row * stride + block] = Math.sqrt(rest);
      }
    }
    return new UnitVectors(count, dimension, along, matrix, tails, stride);
  }

  /** The cosine of two rows. */
  dot(a: number, b: number): number {
    const m = this.matrix;
    const x = a * this.dimension;
    const y = b * this.dimension;
    let sum = this.along[a] * this.along[b];
    for (let k = 0; k < this.dimension; k++) sum += m[x + k] * m[y + k];
    return sum;
  }

  /** The cosine of two rows, or -Infinity as soon as it provably stays below `bar`. */
  dotAtLeast(a: number, b: number, bar: number): number {
    const m = this.matrix;
    const tails = this.tails;
    const dimension = this.dimension;
    const x = a * dimension;
    const y = b * dimension;
    const ta = a * this.stride;
    const tb = b * this.stride;
    let sum = this.along[a] * this.along[b];
    if (sum + tails[ta] * tails[tb] + SLACK < bar) return -Infinity;
    const full = dimension - (dimension % BLOCK);
    let k = 0;
    let block = 1;
    for (; k < full; k += BLOCK, block++) {
      const i = x + k;
      const j = y + k;
      sum +=
        m[i] * m[j] +
        m[i + 1] * m[j + 1] +
        m[i + 2] * m[j + 2] +
        m[i + 3] * m[j + 3] +
        m[i + 4] * m[j + 4] +
        m[i + 5] * m[j + 5] +
        m[i + 6] * m[j + 6] +
        m[i + 7] * m[j + 7] +
        m[i + 8] * m[j + 8] +
        m[i + 9] * m[j + 9] +
        m[i + 10] * m[j + 10] +
        m[i + 11] * m[j + 11] +
        m[i + 12] * m[j + 12] +
        m[i + 13] * m[j + 13] +
        m[i + 14] * m[j + 14] +
        m[i + 15] * m[j + 15];
      if (k + BLOCK < dimension && sum + tails[ta + block] * tails[tb + block] + SLACK < bar) return -Infinity;
    }
    for (; k < dimension; k++) sum += m[x + k] * m[y + k];
    return sum;
  }

  /** Every pair within `rows` whose cosine reaches `bar`. */
  pairsWithin(rows: readonly number[], bar: number, hit: PairHit): void {
    for (let i = 0; i < rows.length; i++) {
      const a = rows[i];
      for (let j = i + 1; j < rows.length; j++) {
        const cosine = this.dotAtLeast(a, rows[j], bar);
        if (cosine >= bar) hit(a, rows[j], cosine);
      }
    }
  }

  /** Every pair of one row of `lefts` and one of `rights` whose cosine reaches `bar`. */
  pairsAcross(lefts: readonly number[], rights: readonly number[], bar: number, hit: PairHit): void {
    for (const a of lefts) {
      for (const b of rights) {
        const cosine = this.dotAtLeast(a, b, bar);
        if (cosine >= bar) hit(a, b, cosine);
      }
    }
  }
}
