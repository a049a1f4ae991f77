import type { EmbeddingServiceIdentity } from '../../../providers/index.ts';
import type { Db } from '../../../storage/index.ts';
import { corpusPart, withCorpusPart, type CorpusSnapshot } from './model.ts';
import { snapshotFor } from './store.ts';
import { corpusDimensions } from './terms.ts';

/**
 * Vectors of the builtin embedder end in `corpusDimensions` components it leaves at zero
 * (providers/embeddings/builtin/threaded.ts): the corpus part, filled here from the database's corpus
 * model. Vectors of any other embedder pass through unchanged.
 */

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

/** Whether vectors of this embedder carry a corpus part. */
export function carriesCorpusPart(identity: Pick<EmbeddingServiceIdentity, 'provider' | 'dimensions'>): boolean {
  return identity.provider === 'builtin' && (identity.dimensions ?? 0) > corpusDimensions;
}

/** `vectors` of `texts` with their corpus parts from `corpus`. */
export function fillCorpusParts(
  texts: readonly string[],
  vectors: readonly Float32Array[],
  corpus: CorpusSnapshot,
): Float32Array[] {
  return vectors.map((vector, index) => withCorpusPart(vector, corpusPart(texts[index], corpus)));
}

/**
 * `embed` whose vectors get their corpus part from `db`'s model as it is at the call, when
 * `identity()` says the embedder's vectors carry one.
 */
export function corpusAware(
  db: Db,
  identity: () => Pick<EmbeddingServiceIdentity, 'provider' | 'dimensions'>,
  embed: Embed,
): Embed {
  return async (texts) => {
    const vectors = await embed(texts);
    if (!carriesCorpusPart(identity())) return vectors;
    return fillCorpusParts(texts, vectors, await snapshotFor(db, texts));
  };
}
