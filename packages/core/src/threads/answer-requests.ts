import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ThreadRequest, ThreadResponse } from './protocol.ts';

/** Nice value of background threads (0 normal, 19 lowest). */
const backgroundNice = 10;

export interface ServeOptions<Output, Part> {
  /** The buffers of a value that are moved to the caller instead of copied. */
  transfer?(value: Output): ArrayBuffer[];
  /** The same for a part of a result. */
  transferPart?(part: Part): ArrayBuffer[];
  /** Runs after each answer has been sent (and the thread would otherwise sit idle). */
  afterAnswer?(): void;
}

/**
 * Inside a worker thread: answers each request with the handler's value or failure. A handler may send
 * parts of its result before it (`emit`), which the caller receives in order, before the answer.
 */
export function serveThread<Input, Output, Part = never>(
  handler: (input: Input, emit: (part: Part) => void) => Promise<Output>,
  options: ServeOptions<Output, Part> = {},
): void {
  lowerThreadPriority();
  parentPort!.on('message', ({ id, input }: ThreadRequest<Input>) => {
    const emit = (part: Part) =>
      parentPort!.postMessage({ id, part } satisfies ThreadResponse<Output, Part>, options.transferPart?.(part) ?? []);
    handler(input, emit)
      .then(
        (value) =>
          parentPort!.postMessage(
            { id, ok: true, value } satisfies ThreadResponse<Output, Part>,
            options.transfer?.(value) ?? [],
          ),
        (error: unknown) => {
          const failure =
            error instanceof Error
              ? { name: error.name, message: error.message, kind: (error as { kind?: string }).kind }
              : { name: 'Error', message: String(error) };
          parentPort!.postMessage({ id, ok: false, failure } satisfies ThreadResponse<Output, Part>);
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
