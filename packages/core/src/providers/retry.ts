import type { LlmError } from './llm/errors.ts';

/** Attempts, waits and time limits of one model or embedding call. */
export interface CallPolicy {
  /** Retries after the first attempt, for transient failures only. */
  maxRetries: number;
  /** Wait before retry n (the last entry repeats); a provider's Retry-After wins when longer. */
  retryDelaysMs: number[];
  maxDelayMs: number;
  /** Whole call, all attempts included. */
  timeoutMs: number;
  /** Longest silence between two stream events before the attempt counts as timed out. */
  idleTimeoutMs: number;
}

export function retryDelay(attempt: number, error: LlmError, policy: CallPolicy): number {
  const planned = policy.retryDelaysMs[Math.min(attempt - 1, policy.retryDelaysMs.length - 1)] ?? 0;
  const asked = (error.retryAfterSeconds ?? 0) * 1000;
  return Math.min(Math.max(planned, asked), policy.maxDelayMs);
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
