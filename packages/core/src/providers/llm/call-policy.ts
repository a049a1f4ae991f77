import { describeError } from '@rhizome/contracts/errors';
import { LlmError } from './errors.ts';
import { retryDelay, sleep, type CallPolicy } from '../retry.ts';

export type { CallPolicy };
import type { AdapterRequest, ChatResult, ChatStreamEvent, LlmAdapter, TokenUsage } from './port.ts';

export type PolicyRequest = Omit<AdapterRequest, 'signal'> & { signal?: AbortSignal };

/** What happened over all attempts, for metrics. */
export interface CallOutcome {
  attempts: number;
  usage: TokenUsage;
  model: string;
  instanceId?: string;
  error: LlmError | null;
}

/**
 * Runs a streamed call under a policy. A transient failure is retried only while nothing has been
 * yielded yet, so a consumer never sees a stream restart; after that the error surfaces as it is.
 * `onDone` receives the outcome exactly once, success or failure.
 */
export async function* streamWithPolicy(
  adapter: LlmAdapter,
  request: PolicyRequest,
  policy: CallPolicy,
  onDone: (outcome: CallOutcome) => void = () => {},
): AsyncIterable<ChatStreamEvent> {
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const outcome: CallOutcome = {
    attempts: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    model: request.model,
    error: null,
  };
  let yielded = false;
  try {
    for (;;) {
      outcome.attempts += 1;
      const attempt = new AbortController();
      const signals = [attempt.signal, deadline, ...(request.signal ? [request.signal] : [])];
      const signal = AbortSignal.any(signals);
      const idle = new IdleTimer(policy.idleTimeoutMs, () => attempt.abort(idleTimeout));
      try {
        for await (const event of adapter.stream({ ...request, signal })) {
          idle.reset();
          if (event.type === 'finish') {
            outcome.usage = event.usage;
            outcome.model = event.model;
            outcome.instanceId = event.instanceId;
          }
          yielded = true;
          yield event;
        }
        return;
      } catch (raw) {
        const error = classify(raw, { caller: request.signal, deadline, attempt: attempt.signal });
        const retry = error.transient && !yielded && outcome.attempts <= policy.maxRetries && !deadline.aborted;
        if (!retry) throw error;
        await sleep(
          retryDelay(outcome.attempts, error, policy),
          AbortSignal.any([deadline, ...(request.signal ? [request.signal] : [])]),
        ).catch(() => {
          throw classify(new LlmError('cancelled', 'cancelled while waiting to retry'), {
            caller: request.signal,
            deadline,
            attempt: attempt.signal,
          });
        });
      } finally {
        idle.stop();
      }
    }
  } catch (error) {
    outcome.error = error as LlmError;
    throw error;
  } finally {
    onDone(outcome);
  }
}

/** Runs a call to the end and gathers its text, tool calls and usage. */
export async function completeWithPolicy(
  adapter: LlmAdapter,
  request: PolicyRequest,
  policy: CallPolicy,
  onDone?: (outcome: CallOutcome) => void,
): Promise<ChatResult> {
  const started = performance.now();
  const result: ChatResult = {
    text: '',
    toolCalls: [],
    finishReason: 'other',
    usage: { inputTokens: 0, outputTokens: 0 },
    provider: adapter.provider,
    model: request.model,
    durationMs: 0,
  };
  for await (const event of streamWithPolicy(adapter, request, policy, onDone)) {
    if (event.type === 'text') result.text += event.delta;
    else if (event.type === 'tool_call') result.toolCalls.push(event.call);
    else if (event.type === 'finish') {
      result.finishReason = event.finishReason;
      result.usage = event.usage;
      result.model = event.model;
      if (event.instanceId) result.instanceId = event.instanceId;
    }
  }
  result.durationMs = performance.now() - started;
  return result;
}

const idleTimeout = new LlmError('timeout', 'the provider stopped sending');

/** Names the real reason when an abort surfaced as some other error. */
function classify(
  raw: unknown,
  signals: { caller?: AbortSignal; deadline: AbortSignal; attempt: AbortSignal },
): LlmError {
  if (signals.caller?.aborted) return new LlmError('cancelled', 'the call was cancelled');
  if (signals.deadline.aborted) return new LlmError('timeout', 'the call took longer than its time limit');
  if (signals.attempt.aborted) return idleTimeout;
  return raw instanceof LlmError ? raw : new LlmError('unavailable', describeError(raw));
}

class IdleTimer {
  private timer: NodeJS.Timeout;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.timer = setTimeout(onIdle, ms);
  }

  reset(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onIdle, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
