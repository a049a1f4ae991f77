import { addIndexVector, corpusDimensions, indexVector, termCounts } from './terms.ts';

/**
 * The corpus model: semantic search with the builtin embedder, learned from the database's own chunks.
 * Every chunk learned counts once for each of its words, and adds the sum of its words' index vectors to
 * each word's context vector, so words that occur in the same chunks get similar contexts (random indexing).
 * A text's corpus part is the sum, over its words, of the word's index vector plus its normalised context
 * (weight `contextWeight`), each weighted by log term frequency × inverse chunk frequency; texts match on
 * the rare words they share and, through the contexts, on words that occur beside each other elsewhere —
 * a film's passage and its director's, which the film's passage names.
 *
 * Every sum is additive, so learning chunks one batch at a time gives the model that learning them all at
 * once gives, and vectors made at different sizes of the corpus stay comparable: index vectors never change,
 * only weights and contexts grow. That is what lets vectors be re-made in the background while search keeps
 * answering with the ones it has.
 */

export interface TermStats {
  /** Chunks the word occurs in. */
  documents: number;
  /** Σ over those chunks of the sum of their words' index vectors. */
  context: Float32Array;
}

/** What making vectors needs: the chunk count and the statistics of (at least) the words of the texts. */
export interface CorpusSnapshot {
  seed: number;
  documents: number;
  terms: ReadonlyMap<string, TermStats>;
}

/**
 * Weight of a word's normalised context beside its own index vector. On the 2Wiki kit (6,119 passages, 51
 * questions, plain vector search) all-evidence@8 was 0.31 at 0 and 0.5, 0.37 at 0.2.
 */
const contextWeight = 0.2;

/**
 * Weight of the word-vector part (the first components) beside the corpus part, both unit length, so that
 * cosines add up as 0.3 × the word vectors' + 1 × the corpus parts' (then scaled): all-evidence@8 0.35
 * without the word vectors, 0.37 at 0.3, 0.31 at 0.6. They still carry paraphrase ("film director" ~
 * "filmmaker"), and are all a chunk's vector has before the chunk is learned.
 */
const wordVectorWeight = Math.sqrt(0.3);

/** Learns `texts` (chunks) into `terms`, which holds every word of them (zero statistics for new ones). */
export function learnTexts(seed: number, texts: readonly string[], terms: Map<string, TermStats>): void {
  for (const text of texts) {
    const words = [...termCounts(text).keys()];
    const sum = new Float32Array(corpusDimensions);
    for (const word of words) addIndexVector(sum, indexVector(word, seed), 1);
    for (const word of words) {
      const stats = terms.get(word);
      if (!stats) throw new Error(`learnTexts: no statistics given for "${word}"`);
      stats.documents += 1;
      for (let i = 0; i < corpusDimensions; i++) stats.context[i] += sum[i];
    }
  }
}

export function emptyStats(): TermStats {
  return { documents: 0, context: new Float32Array(corpusDimensions) };
}

/** The corpus part of `text`: a unit vector, or zeros when it has no word. */
export function corpusPart(text: string, corpus: CorpusSnapshot): Float32Array {
  const sum = new Float64Array(corpusDimensions);
  for (const [word, count] of termCounts(text)) {
    const stats = corpus.terms.get(word);
    const documents = stats?.documents ?? 0;
    const weight = (1 + Math.log(count)) * Math.log(1 + (corpus.documents - documents + 0.5) / (documents + 0.5));
    addIndexVector(sum, indexVector(word, corpus.seed), weight);
    const length = stats ? norm(stats.context) : 0;
    if (length > 0) {
      const factor = (contextWeight * weight) / length;
      for (let i = 0; i < corpusDimensions; i++) sum[i] += stats!.context[i] * factor;
    }
  }
  return unitOrZero(sum);
}

/**
 * `vector` (the builtin embedder's: word-vector components, then `corpusDimensions` for the corpus) with
 * its corpus components set to `part`, the two weighted and the whole of unit length.
 */
export function withCorpusPart(vector: Float32Array, part: Float32Array): Float32Array {
  const head = vector.length - corpusDimensions;
  const words = unitOrZero(vector.subarray(0, head));
  const partLength = norm(part);
  const length = Math.sqrt(wordVectorWeight * wordVectorWeight * norm(words) ** 2 + partLength * partLength);
  const combined = new Float32Array(vector.length);
  if (length === 0) return combined;
  for (let i = 0; i < head; i++) combined[i] = (wordVectorWeight * words[i]) / length;
  for (let i = 0; i < corpusDimensions; i++) combined[head + i] = part[i] / length;
  return combined;
}

function unitOrZero(vector: ArrayLike<number>): Float32Array {
  const length = norm(vector);
  const unit = new Float32Array(vector.length);
  if (length > 0) for (let i = 0; i < vector.length; i++) unit[i] = vector[i] / length;
  return unit;
}

function norm(vector: ArrayLike<number>): number {
  let squares = 0;
  for (let i = 0; i < vector.length; i++) squares += vector[i] * vector[i];
  return Math.sqrt(squares);
}
