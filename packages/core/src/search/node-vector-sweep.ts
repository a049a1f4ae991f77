import { describeError } from '@rhizome/contracts/errors';
import type { BackgroundJob } from '../module/index.ts';
import type { Db } from '../storage/index.ts';
import type { SearchHost } from './host.ts';
import { embedNodes } from './node-embedding.ts';
import { autoEmbedArmed, nodesWithoutVector, someNodeLacksVector } from './read-model/node-vector-gaps.ts';
import { updateCorpus } from './vectors/corpus/update.ts';

/** A failing pass doubles the wait before the next, up to this many intervals. */
const maxBackoffFactor = 32;
/** The first pass after start-up comes this soon (or after one interval, if that is shorter). */
const firstPassAfterMs = 5_000;
const readinessTimeoutMs = 5_000;
const page = 1_000;

/**
 * One pass over one database: embeds the nodes without a vector that are older than `graceMs` (younger
 * ones are still the embedding workflow's), while auto-embedding is armed there. Returns how many were
 * embedded; throws when the provider is not ready or fails.
 */
async function sweepDatabase(
  host: SearchHost,
  name: string,
  db: Db,
  graceMs: number,
  signal: AbortSignal,
): Promise<number> {
  if (!(await autoEmbedArmed(db)) || !(await someNodeLacksVector(db))) return 0;
  const createdBefore = new Date(Date.now() - graceMs).toISOString();
  const { embeddings } = host.providers;
  const embedder = {
    identity: () => embeddings.identity(),
    embed: (texts: string[]) => embeddings.embed(texts, { signal, context: { database: name } }),
  };
  let lacking = await nodesWithoutVector(db, createdBefore, 0, page);
  if (!lacking.length) return 0;
  const readiness = await embeddings.check(AbortSignal.any([signal, AbortSignal.timeout(readinessTimeoutMs)]));
  if (!readiness.ready) throw new Error(`the embedding provider is not ready: ${readiness.message}`);
  let embedded = 0;
  while (lacking.length && !signal.aborted) {
    embedded += await embedNodes(
      db,
      lacking.map((row) => row.id),
      embedder,
      host.vectorWriters.nodes.openSink(name),
    );
    lacking = await nodesWithoutVector(db, createdBefore, lacking[lacking.length - 1].rowid, page);
  }
  return embedded;
}

/**
 * Brings the database's corpus model up to its chunks (vectors/corpus/update.ts), when vector search is on,
 * on the bulk-writer connection: requests keep reading beside its transactions.
 */
async function updateCorpusOf(host: SearchHost, name: string, signal: AbortSignal): Promise<void> {
  const settings = host.settings.get();
  if (!settings.search.enable_vector_search) return;
  const started = performance.now();
  const { learned, refreshed } = await updateCorpus({
    db: await host.databases.bulkWriter(name),
    database: name,
    embeddings: host.providers.embeddings,
    chunks: host.vectorWriters.chunks.openSink(name),
    // Only indexes this process has open: like the sinks, the sweep never opens a second writer.
    reindex: async (identity) => {
      for (const writers of [host.vectorWriters.chunks, host.vectorWriters.nodes])
        await (await writers.opened(name))?.rebuild(identity);
    },
    waveSize: settings.batching.embedding_wave_size,
    signal,
  });
  const took = `in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  if (refreshed)
    host.logger.info(`corpus model of '${name}': learned ${learned} chunk(s) anew and re-made every vector ${took}`);
  else if (learned) host.logger.info(`corpus model of '${name}': learned ${learned} new chunk(s) ${took}`);
}

/** One pass over every database; false when one of them failed (the next pass then waits longer). */
async function sweep(host: SearchHost, signal: AbortSignal): Promise<boolean> {
  const graceMs = host.settings.get().embedding.vector_sweep_interval_seconds * 1000;
  let succeeded = true;
  for (const { name } of host.databases.list()) {
    try {
      await updateCorpusOf(host, name, signal);
      const embedded = await sweepDatabase(host, name, await host.databases.connection(name), graceMs, signal);
      if (!embedded) continue;
      host.logger.info(`node vector sweep: embedded ${embedded} node(s) of '${name}' that were left without a vector`);
      await host.processing.record({
        type: 'recovery',
        action: 'embed_nodes_without_vector',
        source: 'reconciler',
        reason: 'nodes were left without a vector (their embedding workflow did not run)',
        details: { embedded },
        database_name: name,
      });
    } catch (error) {
      if (signal.aborted) break;
      succeeded = false;
      host.logger.warning(`node vector sweep of '${name}': ${describeError(error)}`);
    }
  }
  return succeeded;
}

/**
 * Keeps each database's corpus model up with its chunks (the builtin embedder's corpus part), and embeds
 * the nodes that auto-embedding should have embedded but did not (the enqueue of their embedding
 * workflow failed, or the provider was down when a commit embedded them), in every database: shortly
 * after start-up, then every `embedding.vector_sweep_interval_seconds`. A node counts as left once it is
 * older than that interval; a node the workflow embeds meanwhile is skipped by it. When nothing lacks a
 * vector a pass costs two counts per database; while passes fail, the wait between them doubles.
 */
export const nodeVectorSweep: BackgroundJob<SearchHost> = {
  name: 'node-vector-sweep',
  start(host) {
    const stopping = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    let backoff = 1;
    const intervalMs = () => host.settings.get().embedding.vector_sweep_interval_seconds * 1000;
    const schedule = (delayMs: number) => {
      timer = setTimeout(() => {
        running = sweep(host, stopping.signal)
          .catch((error: unknown) => {
            host.logger.warning(`node vector sweep: ${describeError(error)}`);
            return false;
          })
          .then((succeeded) => {
            backoff = succeeded ? 1 : Math.min(backoff * 2, maxBackoffFactor);
            if (!stopping.signal.aborted) schedule(intervalMs() * backoff);
          });
      }, delayMs);
      timer.unref();
    };
    schedule(Math.min(firstPassAfterMs, intervalMs()));
    return {
      // Waits for a pass in flight: a query issued after the database closed would hold the process.
      stop: async () => {
        stopping.abort();
        clearTimeout(timer);
        await running;
      },
    };
  },
};
