import type { EmbeddingIdentity, EmbeddingService } from '../../../providers/index.ts';
import type { Db } from '../../../storage/index.ts';
import { embedNodes } from '../../node-embedding.ts';
import { storeChunkWave } from '../../reembed.ts';
import type { VectorSink } from '../writers.ts';
import { carriesCorpusPart, fillCorpusParts } from './embed.ts';
import { emptyStats, learnTexts, type CorpusSnapshot, type TermStats } from './model.ts';
import { chunkCountAfter, chunksAfter, nodesAfter } from './read-model.ts';
import { corpusState, learnChunks, markRefreshed, replaceCorpus, wordsOf, type CorpusState } from './store.ts';

/**
 * Keeps a database's corpus model up with its chunks, in the background (the vector sweep): chunks not yet
 * learned are learned a wave at a time and their vectors made with the model that includes them. Once the
 * corpus has grown by half since every vector was last made (and on the first pass), the model is
 * learned from scratch instead — which also forgets deleted chunks — and every chunk and node vector is
 * made anew; when nothing is waiting to be learned, growth by a fifth is enough, so that vectors settle on
 * the model of the whole corpus once an ingest is over. The growth factors bound the work: all passes
 * together embed each chunk a few times (at most about six).
 * Vectors stay comparable across versions of the model (model.ts), so search answers throughout with what
 * the index holds. A refresh writes the re-made vectors to SQLite only and then has the vector indexes
 * rebuilt from it: replacing every vector of an HNSW graph in place leaves links chosen for the old
 * vectors, and on the 2Wiki kit that cost semantic search a sixth of its answers (all-evidence@8 0.235
 * against 0.275 for a graph built afresh from the same vectors), besides re-linking each vector twice.
 */

export interface CorpusUpdateDeps {
  db: Db;
  database: string;
  embeddings: EmbeddingService;
  /** The chunk index, for the vectors of chunks learned a wave at a time. */
  chunks: VectorSink;
  /** Rebuilds the chunk and node vector indexes from the vectors SQLite holds. */
  reindex(identity: EmbeddingIdentity): Promise<void>;
  waveSize: number;
  signal: AbortSignal;
}

export interface CorpusUpdate {
  learned: number;
  /** Whether every vector was made anew. */
  refreshed: boolean;
}

/** Growth of the chunk count since the last refresh that makes the next pass a refresh. */
const refreshGrowth = 1.5;
/** The same, once no chunk is waiting to be learned: vectors then settle on the model of the whole corpus. */
const settledGrowth = 1.2;
const page = 2_000;

/** Whether a pass over a corpus in `state` with `pending` chunks to learn learns from scratch. */
export function needsRefresh(state: CorpusState, pending: number): boolean {
  if (pending === 0) return state.documents > 0 && state.documents >= settledGrowth * state.refreshedDocuments;
  return state.documents + pending >= refreshGrowth * state.refreshedDocuments;
}

export async function updateCorpus(deps: CorpusUpdateDeps): Promise<CorpusUpdate> {
  const { db, embeddings } = deps;
  const { provider, model, dimensions } = embeddings.identity();
  if (!carriesCorpusPart({ provider, dimensions }) || dimensions === null) return { learned: 0, refreshed: false };
  const identity: EmbeddingIdentity = { provider, model, dimensions };
  const state = await corpusState(db);
  const pending = await chunkCountAfter(db, state.learnedThrough);
  if (needsRefresh(state, pending)) return { learned: await refresh(deps, identity, state.seed), refreshed: true };
  let learned = 0;
  for (let after = state.learnedThrough; !deps.signal.aborted;) {
    const wave = await chunksAfter(db, after, deps.waveSize);
    if (!wave.length) break;
    after = wave[wave.length - 1].rowid;
    const corpus = await learnChunks(db, wave);
    await embedChunkWave(deps, identity, wave, corpus, deps.chunks);
    learned += wave.length;
  }
  return { learned, refreshed: false };
}

/**
 * Learns the model from every chunk, stores it, then makes every chunk and node vector with it and has
 * the indexes rebuilt from them.
 */
async function refresh(deps: CorpusUpdateDeps, identity: EmbeddingIdentity, seed: number): Promise<number> {
  const corpus = await learnAll(deps.db, seed);
  await replaceCorpus(deps.db, corpus);
  for (let after = 0; after < corpus.learnedThrough && !deps.signal.aborted;) {
    const wave = await chunksAfter(deps.db, after, deps.waveSize);
    if (!wave.length) break;
    after = wave[wave.length - 1].rowid;
    await embedChunkWave(deps, identity, wave, corpus);
  }
  const embedder = {
    identity: () => deps.embeddings.identity(),
    embed: (texts: string[]) =>
      deps.embeddings.embed(texts, { signal: deps.signal, context: { database: deps.database } }),
  };
  for (let after = 0; !deps.signal.aborted;) {
    const nodes = await nodesAfter(deps.db, after, page);
    if (!nodes.length) break;
    after = nodes[nodes.length - 1].rowid;
    await embedNodes(
      deps.db,
      nodes.map((node) => node.id),
      embedder,
    );
  }
  if (deps.signal.aborted) return corpus.documents;
  await deps.reindex(identity);
  await markRefreshed(deps.db, corpus.documents);
  return corpus.documents;
}

/** The model of every chunk there is now, learned in rowid order. */
export async function learnAll(
  db: Db,
  seed: number,
): Promise<CorpusSnapshot & { learnedThrough: number; terms: Map<string, TermStats> }> {
  const terms = new Map<string, TermStats>();
  let documents = 0;
  let after = 0;
  for (;;) {
    const chunks = await chunksAfter(db, after, page);
    if (!chunks.length) break;
    after = chunks[chunks.length - 1].rowid;
    const texts = chunks.map((chunk) => chunk.content);
    for (const word of wordsOf(texts)) if (!terms.has(word)) terms.set(word, emptyStats());
    learnTexts(seed, texts, terms);
    documents += chunks.length;
  }
  return { seed, documents, learnedThrough: after, terms };
}

async function embedChunkWave(
  deps: CorpusUpdateDeps,
  identity: EmbeddingIdentity,
  wave: readonly { rowid: number; content: string }[],
  corpus: CorpusSnapshot,
  sink?: VectorSink,
): Promise<void> {
  const texts = wave.map((chunk) => chunk.content);
  const vectors = await deps.embeddings.embed(texts, { signal: deps.signal, context: { database: deps.database } });
  await storeChunkWave(deps.db, identity, wave, fillCorpusParts(texts, vectors, corpus), sink);
}
