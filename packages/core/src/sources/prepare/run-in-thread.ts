import os from 'node:os';
import { ThreadClient } from '../../threads/index.ts';
import { UnreadableFileError, type LoaderProgress } from '../loaders/port.ts';
import { PackedChunkList, type ChunkList, type PackedChunks } from './packed.ts';
import type { PrepareInput, PreparedSummary } from './prepare.ts';

const threads = Array.from(
  { length: Math.max(1, Math.min(2, os.cpus().length - 1)) },
  () =>
    new ThreadClient<PrepareInput, PreparedSummary, PreparePart>(new URL('./thread.ts', import.meta.url), (failure) =>
      failure.name === 'UnreadableFileError' ? new UnreadableFileError(failure.message) : new Error(failure.message),
    ),
);

/** What the thread sends before its answer: a segment's chunks, or where a page-by-page read stands. */
export type PreparePart = { chunks: PackedChunks } | { progress: LoaderProgress };

/**
 * Prepares a document on a preparation thread (starting one costs about a second, so they live long),
 * so parsing a large file never stalls the event loop of the process — in the embedded default, the API's.
 * `onChunks` receives the chunks a segment at a time, in order, while the rest is being prepared;
 * `onProgress` where the loader's page-by-page read stands.
 */
export async function prepareInThread(
  input: PrepareInput,
  signal: AbortSignal,
  onChunks: (chunks: ChunkList) => void,
  onProgress?: (progress: LoaderProgress) => void,
): Promise<PreparedSummary> {
  const thread = threads.reduce((best, candidate) => (candidate.busy < best.busy ? candidate : best));
  return thread.run(input, signal, (part) =>
    'chunks' in part ? onChunks(new PackedChunkList(part.chunks)) : onProgress?.(part.progress),
  );
}
