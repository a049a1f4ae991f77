import { nodesToEmbed, storeNodeVectors } from '../graph/index.ts';
import type { EmbeddingIdentity, EmbeddingServiceIdentity } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { corpusAware } from './vectors/corpus/embed.ts';
import type { VectorSink } from './vectors/writers.ts';

const batchSize = 256;

/** What a node's vector is made from: its label and description (the text a search would match). */
function nodeVectorText(label: string, properties: Record<string, unknown>): string {
  const description = typeof properties.description === 'string' ? properties.description : '';
  return description ? `${label}. ${description}` : label;
}

/** The embedding port as node embedding needs it (`EmbeddingService` with the call's signal and context bound). */
export interface NodeEmbedder {
  embed(texts: string[]): Promise<Float32Array[]>;
  identity(): EmbeddingServiceIdentity;
}

/**
 * Embeds nodes in batches through the embedding port (with the database's corpus part, for the builtin
 * embedder: vectors/corpus) and stores the vectors (`node_embeddings`, the
 * source of truth, and the JSON copy on `graph_nodes.embedding`), then hands them to the node vector
 * index when a sink is given. Nodes whose embedding a client supplied keep it. Commit runs this after its
 * transaction: a provider that fails leaves the nodes without one (`POST /search/embeddings` embeds
 * those later) rather than failing the commit. Returns how many nodes were embedded.
 */
export async function embedNodes(
  db: Db,
  nodeIds: string[],
  embedder: NodeEmbedder,
  sink?: VectorSink,
): Promise<number> {
  const embed = corpusAware(
    db,
    () => embedder.identity(),
    (texts) => embedder.embed(texts),
  );
  let embedded = 0;
  for (let start = 0; start < nodeIds.length; start += batchSize) {
    const rows = await nodesToEmbed(db, nodeIds.slice(start, start + batchSize));
    if (!rows.length) continue;
    const { provider, model } = embedder.identity();
    const vectors = await embed(
      rows.map((row) => nodeVectorText(row.label, JSON.parse(row.properties) as Record<string, unknown>)),
    );
    await db.transaction((trx) =>
      storeNodeVectors(
        trx,
        rows.map((row, index) => ({ nodeId: row.id, model, vector: vectors[index] })),
      ),
    );
    const identity: EmbeddingIdentity = { provider, model, dimensions: vectors[0].length };
    await sink?.upsert(
      rows.map((row, index) => ({ label: row.rowid, vector: vectors[index] })),
      identity,
    );
    embedded += rows.length;
  }
  return embedded;
}
