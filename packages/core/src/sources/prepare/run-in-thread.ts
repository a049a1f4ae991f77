import os from 'node:os';
import { ThreadClient } from '../../threads/index.ts';
import { UnreadableFileError } from '../loaders/port.ts';
import { PackedChunkList, type ChunkList, type PackedChunks } from './packed.ts';
import type { PrepareInput, PreparedSummary } from './prepare.ts';

const threads = Array.from(
  { length: Math.max(1, Math.min(2, os.cpus().length - 1)) },
  () =>
    new ThreadClient<PrepareInput, PreparedSummary, PackedChunks>(new URL('./thread.ts', import.meta.url), (failure) =>
      failure.name === 'UnreadableFileError' ? new UnreadableFileError(failure.message) : new Error(failure.message),
    ),
);

/**
 * Prepares a document on a preparation thread (starting one costs about a second, so they live long),
 * so parsing a large file never stalls the event loop of the process — in the embedded default, the API's.
 * `onChunks` receives the chunks a segment at a time, in order, while the rest is being prepared.
 */
export async function prepareInThread(
  input: PrepareInput,
  signal: AbortSignal,
  onChunks: (chunks: ChunkList) => void,
): Promise<PreparedSummary> {
  const thread = threads.reduce((best, candidate) => (candidate.busy < best.busy ? candidate : best));
  return thread.run(input, signal, (packed) => onChunks(new PackedChunkList(packed)));
}
