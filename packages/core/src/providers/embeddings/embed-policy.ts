import { LlmError } from '../llm/errors.ts';
import { retryDelay, sleep, type CallPolicy } from '../retry.ts';
import type { EmbeddingAdapter } from './port.ts';
import { describeError } from '@rhizome/contracts/errors';

/**
 * Embeds one batch (at most `adapter.maxBatch` texts) under a policy: transient failures are retried
 * with the policy's waits, each attempt and the whole call are time-limited, and the caller can cancel.
 */
export async function embedWithPolicy(
  adapter: EmbeddingAdapter,
  texts: string[],
  policy: CallPolicy,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const callSignal = AbortSignal.any(signal ? [deadline, signal] : [deadline]);
  for (let attempt = 1; ; attempt++) {
    const attemptLimit = AbortSignal.timeout(policy.idleTimeoutMs);
    try {
      const vectors = await adapter.embed(texts, AbortSignal.any([callSignal, attemptLimit]));
      if (vectors.length !== texts.length)
        throw new LlmError('bad_request', `the provider returned ${vectors.length} vectors for ${texts.length} texts`);
      return vectors;
    } catch (raw) {
      const error =
        attemptLimit.aborted && !callSignal.aborted
          ? new LlmError('timeout', 'the provider did not answer in time')
          : classify(raw, signal, deadline);
      if (!error.transient || attempt > policy.maxRetries || deadline.aborted) throw error;
      await sleep(retryDelay(attempt, error, policy), callSignal).catch(() => {
        throw classify(raw, signal, deadline);
      });
    }
  }
}

function classify(raw: unknown, caller: AbortSignal | undefined, deadline: AbortSignal): LlmError {
  if (caller?.aborted) return new LlmError('cancelled', 'the embedding call was cancelled');
  if (deadline.aborted) return new LlmError('timeout', 'the embedding call took longer than its time limit');
  return raw instanceof LlmError ? raw : new LlmError('unavailable', describeError(raw));
}
