import { ToolInputError } from '../tools/types.ts';
import { describeError } from '@rhizome/contracts/errors';

/** Retry delays of a failing step: 1 s, growing by 2.0, capped at 30 s. */
export const retryBackoff = { firstMs: 1000, multiplier: 2, maxMs: 30_000 };

export function retryDelayMs(retry: number): number {
  return Math.min(retryBackoff.maxMs, retryBackoff.firstMs * retryBackoff.multiplier ** (retry - 1));
}

export class StepTimeoutError extends Error {
  constructor(seconds: number) {
    super(`the step took longer than its ${seconds} s timeout`);
    this.name = 'StepTimeoutError';
  }
}

/** Cancellation (of the task or the execution) reached a step. */
export class ExecutionCancelledError extends Error {
  constructor() {
    super('the execution was cancelled');
    this.name = 'ExecutionCancelledError';
  }
}

/**
 * Runs one attempt under the step's timeout: the attempt gets a signal aborted at the timeout or on
 * cancellation, and is abandoned then even if the tool ignores its signal.
 */
export async function attemptWithin<T>(
  run: (signal: AbortSignal) => Promise<T>,
  timeoutSeconds: number | null,
  outer: AbortSignal,
): Promise<T> {
  if (outer.aborted) throw new ExecutionCancelledError();
  const controller = new AbortController();
  const signal = AbortSignal.any([outer, controller.signal]);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    if (timeoutSeconds !== null) {
      timer = setTimeout(() => {
        const error = new StepTimeoutError(timeoutSeconds);
        controller.abort(error);
        reject(error);
      }, timeoutSeconds * 1000);
    }
    onAbort = () => reject(new ExecutionCancelledError());
    outer.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    return await Promise.race([run(signal), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) outer.removeEventListener('abort', onAbort);
  }
}

/** Whether another attempt may help: not after bad input, a refusal, or cancellation. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ToolInputError || error instanceof ExecutionCancelledError);
}

export function messageOf(error: unknown): string {
  return describeError(error);
}
