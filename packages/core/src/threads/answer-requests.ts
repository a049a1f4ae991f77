import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ThreadRequest, ThreadResponse } from './protocol.ts';

/** Nice value of background threads (0 normal, 19 lowest). */
const backgroundNice = 10;

export interface ServeOptions<Output> {
  /** The buffers of a value that are moved to the caller instead of copied. */
  transfer?(value: Output): ArrayBuffer[];
  /** Runs after each answer has been sent (and the thread would otherwise sit idle). */
  afterAnswer?(): void;
}

/** Inside a worker thread: answers each request with the handler's value or failure. */
export function serveThread<Input, Output>(
  handler: (input: Input) => Promise<Output>,
  options: ServeOptions<Output> = {},
): void {
  lowerThreadPriority();
  parentPort!.on('message', ({ id, input }: ThreadRequest<Input>) => {
    handler(input)
      .then(
        (value) =>
          parentPort!.postMessage(
            { id, ok: true, value } satisfies ThreadResponse<Output>,
            options.transfer?.(value) ?? [],
          ),
        (error: unknown) => {
          const failure =
            error instanceof Error
              ? { name: error.name, message: error.message, kind: (error as { kind?: string }).kind }
              : { name: 'Error', message: String(error) };
          parentPort!.postMessage({ id, ok: false, failure } satisfies ThreadResponse<Output>);
        },
      )
      .finally(() => options.afterAnswer?.());
  });
}

/**
 * Background threads (document preparation, embedding) yield the CPU to the main thread, which answers
 * the API: on Linux, nice values are per thread and `os.setPriority` without a pid sets the caller's.
 * Elsewhere (or without permission) the thread keeps its priority.
 */
function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(backgroundNice);
  } catch {
    // not permitted here: run at normal priority
  }
}
