import { parentPort } from 'node:worker_threads';
import type { ThreadRequest, ThreadResponse } from './protocol.ts';

/** Inside a worker thread: answers each request with the handler's value or failure. */
export function serveThread<Input, Output>(handler: (input: Input) => Promise<Output>): void {
  parentPort!.on('message', ({ id, input }: ThreadRequest<Input>) => {
    handler(input).then(
      (value) => parentPort!.postMessage({ id, ok: true, value } satisfies ThreadResponse<Output>),
      (error: unknown) => {
        const failure = error instanceof Error ? { name: error.name, message: error.message, kind: (error as { kind?: string }).kind } : { name: 'Error', message: String(error) };
        parentPort!.postMessage({ id, ok: false, failure } satisfies ThreadResponse<Output>);
      },
    );
  });
}
