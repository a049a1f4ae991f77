import type { EmbeddingIdentity } from '../providers/index.ts';
import type { EmbeddingService } from '../providers/index.ts';
import { allTemplates, nodesLackingVectors, storeTemplateEmbedding, templateVectorStates } from '../graph/index.ts';
import { templateText } from '../graph/index.ts';
import { chunksLackingVectors, markChunksEmbedded, storeChunkVectors } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { embedNodes } from './node-embedding.ts';
import { corpusAware } from './vectors/corpus/embed.ts';
import type { VectorSink } from './vectors/writers.ts';
import { describeError } from '@rhizome/contracts/errors';

/**
 * Embedding what lacks a vector of the configured embedder: chunks, nodes and templates whose vector is
 * missing or of another model or dimensions. Every pass walks its table by rowid and only touches rows
 * still lacking one, so a pass cut short (a crash, a retry, a cancel) resumes where it stopped. Stored
 * node vector rows are replaced, not updated, so vector index readers see them by their new rowid. A
 * chunk's vector keeps its key, the chunk's rowid (migration 0012): a reader that looked before the
 * vector was replaced sees it once the index has it (the index receives it here, and the task
 * checkpoints every index at the end); meanwhile semantic search falls back to keyword search anyway.
 */

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

/** The configured embedder's identity; a remote model that has not answered yet is asked once for its dimensions. */
export async function embedderIdentity(embeddings: EmbeddingService, embed: Embed): Promise<EmbeddingIdentity> {
  const { provider, model, dimensions } = embeddings.identity();
  return { provider, model, dimensions: dimensions ?? (await embed(['dimensions']))[0].length };
}

const nodePage = 1_000;

export interface NodePassResult {
  embedded: number;
  failed: number;
  errors: string[];
}

/**
 * Embeds every node lacking a usable vector, a page at a time. With `keepGoing`, a page that fails is
 * counted and skipped (POST /search/embeddings reports it); otherwise the failure is thrown (a task retries).
 */
export async function embedLackingNodes(
  db: Db,
  identity: EmbeddingIdentity,
  embeddings: EmbeddingService,
  embed: Embed,
  sink: VectorSink | undefined,
  options: { keepGoing: boolean; checkCancelled?: () => Promise<void> },
): Promise<NodePassResult> {
  const result: NodePassResult = { embedded: 0, failed: 0, errors: [] };
  const embedder = { identity: () => embeddings.identity(), embed };
  for (let after = 0; ;) {
    await options.checkCancelled?.();
    const page = await nodesLackingVectors(db, identity, after, nodePage);
    if (!page.length) return result;
    after = page[page.length - 1].rowid;
    try {
      result.embedded += await embedNodes(
        db,
        page.map((row) => row.id),
        embedder,
        sink,
      );
    } catch (error) {
      if (!options.keepGoing) throw error;
      result.failed += page.length;
      const reason = describeError(error);
      if (!result.errors.includes(reason)) result.errors.push(reason);
    }
  }
}

/** Templates lacking a vector of `identity`, re-embedded from their name, description and properties. */
export async function embedLackingTemplates(
  db: Db,
  identity: EmbeddingIdentity,
  embed: Embed,
  sink: VectorSink,
): Promise<number> {
  const rows = await templateVectorStates(db);
  const lacking = new Map(
    rows
      .filter((row) => row.embedding_model !== identity.model || row.embedding_dimensions !== identity.dimensions)
      .map((row) => [row.id, row.rowid]),
  );
  const templates = (await allTemplates(db)).filter((template) => lacking.has(template.id));
  for (let start = 0; start < templates.length; start += 32) {
    const batch = templates.slice(start, start + 32);
    const vectors = await embed(batch.map(templateText));
    await db.transaction(async (trx) => {
      for (const [index, template] of batch.entries())
        await storeTemplateEmbedding(trx, template.id, Array.from(vectors[index]), identity.model);
    });
    await sink.upsert(
      batch.map((template, index) => ({ label: lacking.get(template.id)!, vector: vectors[index] })),
      identity,
    );
  }
  return templates.length;
}

/** Chunks lacking a vector of `identity`, embedded in waves of `waveSize`. */
export async function embedLackingChunks(
  db: Db,
  identity: EmbeddingIdentity,
  embed: Embed,
  sink: VectorSink,
  waveSize: number,
  checkCancelled: () => Promise<void>,
): Promise<number> {
  const embedWithCorpus = corpusAware(db, () => identity, embed);
  let embedded = 0;
  for (let after = 0; ;) {
    await checkCancelled();
    const wave = await chunksLackingVectors(db, identity, after, waveSize);
    if (!wave.length) break;
    after = wave[wave.length - 1].rowid;
    await storeChunkWave(db, identity, wave, await embedWithCorpus(wave.map((chunk) => chunk.content)), sink);
    embedded += wave.length;
  }
  await markChunksEmbedded(db, identity);
  return embedded;
}

/** Stores the vectors of a wave of chunks (replacing those they had) and hands them to the chunk index, when a sink is given. */
export async function storeChunkWave(
  db: Db,
  identity: EmbeddingIdentity,
  wave: readonly { rowid: number }[],
  vectors: readonly Float32Array[],
  sink?: VectorSink,
): Promise<void> {
  await db.transaction((trx) =>
    storeChunkVectors(
      trx,
      wave.map((chunk, index) => ({ rowid: chunk.rowid, model: identity.model, vector: vectors[index] })),
    ),
  );
  await sink?.upsert(
    wave.map((chunk, index) => ({ label: chunk.rowid, vector: vectors[index] })),
    identity,
  );
}
