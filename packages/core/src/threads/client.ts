import { Worker } from 'node:worker_threads';
import type { ThreadFailure, ThreadResponse } from './protocol.ts';

interface Pending<Output, Part> {
  resolve(value: Output): void;
  reject(error: unknown): void;
  part?(part: Part): void;
}

/**
 * A long-lived worker thread running one TypeScript entry (started through boot.mjs, which registers
 * the TypeScript loader threads do not inherit). Requests queue in the thread; the thread does not keep
 * the process alive. A request whose signal aborts cannot be interrupted inside the thread, so the
 * thread is replaced (its other requests fail and may be retried).
 */
export class ThreadClient<Input, Output, Part = never> {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending<Output, Part>>();
  private nextId = 0;

  constructor(
    private readonly entry: URL,
    private readonly toError: (failure: ThreadFailure) => Error,
  ) {}

  get busy(): number {
    return this.pending.size;
  }

  /** `onPart` receives the parts of the result the thread sends before its answer, in order. */
  run(input: Input, signal?: AbortSignal, onPart?: (part: Part) => void): Promise<Output> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Output>((resolve, reject) => {
      const onAbort = () => this.stop(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
        part: onPart,
      });
      worker.postMessage({ id, input });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./boot.mjs', import.meta.url), { workerData: { entry: this.entry.href } });
    worker.on('message', (answer: ThreadResponse<Output, Part>) => {
      const pending = this.pending.get(answer.id);
      if (!pending) return;
      if ('part' in answer) this.deliver(pending, answer.part);
      else if (answer.ok) pending.resolve(answer.value);
      else pending.reject(this.toError(answer.failure));
    });
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => this.stop(new Error(`the worker thread exited (${code})`)));
    // After the listeners: attaching a 'message' listener refs the thread's port again.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** A receiver that throws fails its request, not the thread's other requests. */
  private deliver(pending: Pending<Output, Part>, part: Part): void {
    try {
      pending.part?.(part);
    } catch (error) {
      pending.reject(error);
    }
  }

  private stop(reason: unknown): void {
    const worker = this.worker;
    this.worker = null;
    for (const pending of [...this.pending.values()]) pending.reject(reason);
    void worker?.terminate();
  }
}
