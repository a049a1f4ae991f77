import { RateLimited, Unavailable } from '@rhizome/contracts/errors';

/**
 * Why a model call failed. `rate_limited`, `unavailable` and `timeout` are transient and retried;
 * the rest are permanent for that request.
 */
export type LlmErrorKind =
  'rate_limited' | 'unavailable' | 'timeout' | 'auth' | 'bad_request' | 'model_missing' | 'cancelled';

const transientKinds: ReadonlySet<LlmErrorKind> = new Set(['rate_limited', 'unavailable', 'timeout']);

export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status: number | null = null,
    /** Seconds the provider asked us to wait (Retry-After), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'LlmError';
  }

  get transient(): boolean {
    return transientKinds.has(this.kind);
  }

  /** For the task queue: a failed task is retried only when the model call may succeed later. */
  get permanent(): boolean {
    return !this.transient;
  }

  get errorType(): string {
    return `llm_${this.kind}`;
  }
}

/** The error class an HTTP status from a provider means. */
export function kindOfStatus(status: number): LlmErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'model_missing';
  if (status === 408 || status >= 500) return 'unavailable';
  return 'bad_request';
}

/** A provider's rate limit (429 on the wire), or the provider unavailable (503). */
export function llmFailure(error: LlmError): RateLimited | Unavailable {
  if (error.kind === 'rate_limited')
    return new RateLimited(`language-model provider rate limit exceeded: ${error.message}`);
  return new Unavailable(`language-model provider unavailable: ${error.message}`);
}
