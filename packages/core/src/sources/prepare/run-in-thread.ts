import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { UnreadableFileError } from '../loaders/port.ts';
import type { PrepareInput, PreparedDocument } from './prepare.ts';

type ThreadAnswer = { id: number; ok: true; prepared: PreparedDocument } | { id: number; ok: false; message: string; unreadable: boolean };

interface Pending {
  resolve(prepared: PreparedDocument): void;
  reject(error: unknown): void;
}

/** One long-lived preparation thread: starting one (TypeScript loader, parsers) costs about a second. */
class PrepareThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  busy = 0;

  run(input: PrepareInput, signal: AbortSignal): Promise<PreparedDocument> {
    const worker = this.start();
    const id = this.nextId++;
    this.busy += 1;
    return new Promise<PreparedDocument>((resolve, reject) => {
      // A cancelled preparation cannot be interrupted inside the thread: the thread is replaced.
      const onAbort = () => this.stop(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        signal.removeEventListener('abort', onAbort);
        this.busy -= 1;
        this.pending.delete(id);
      };
      this.pending.set(id, {
        resolve: (prepared) => (done(), resolve(prepared)),
        reject: (error) => (done(), reject(error)),
      });
      worker.postMessage({ id, input });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./boot.mjs', import.meta.url), { workerData: { entry: new URL('./thread.ts', import.meta.url).href } });
    worker.unref();
    worker.on('message', (answer: ThreadAnswer) => {
      const pending = this.pending.get(answer.id);
      if (!pending) return;
      if (answer.ok) pending.resolve(answer.prepared);
      else pending.reject(answer.unreadable ? new UnreadableFileError(answer.message) : new Error(answer.message));
    });
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => this.stop(new Error(`the document preparation thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private stop(reason: unknown): void {
    const worker = this.worker;
    this.worker = null;
    for (const pending of [...this.pending.values()]) pending.reject(reason);
    void worker?.terminate();
  }
}

const threads = Array.from({ length: Math.max(1, Math.min(2, os.cpus().length - 1)) }, () => new PrepareThread());

/**
 * Prepares a document on a preparation thread, so parsing a large file never stalls the event loop of
 * the process (in the embedded default, the API's). Aborting the signal stops that work.
 */
export function prepareInThread(input: PrepareInput, signal: AbortSignal): Promise<PreparedDocument> {
  const thread = threads.reduce((best, candidate) => (candidate.busy < best.busy ? candidate : best));
  return thread.run(input, signal);
}
