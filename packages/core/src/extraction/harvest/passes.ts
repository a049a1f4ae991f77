import type { ChatProvider } from '@rhizome/contracts/settings';
import { LineSplitter, parseLine, type ExtractionRecord } from '../../providers/index.ts';
import type { ExtractionTask, LlmCallContext } from '../../providers/index.ts';
import type { LlmService } from '../../providers/index.ts';
import type { AttemptRecorder } from '../attempts/recorder.ts';
import type { HarvestStats } from '../types.ts';
import { isEntityLine, type StreamGuard } from './guards.ts';
import { countRejected } from './stats.ts';

/**
 * One extraction pass: a streamed call whose text is cut into lines and parsed as it arrives, each
 * line judged by the pass's loop guard. A tripped guard aborts the call (the upstream request is
 * cancelled) and keeps what was parsed before; a cancelled task (the caller's signal) throws. An empty
 * answer is asked again once when the group is long enough to hold something.
 */

export interface PassRequest {
  llm: Pick<LlmService, 'stream'>;
  system: string;
  user: string;
  extraction: ExtractionTask;
  signal: AbortSignal;
  context: LlmCallContext;
  /** A fresh guard for each attempt. */
  guard: () => StreamGuard;
  /** Ask once more after an empty answer (the group text has at least 200 characters). */
  retryEmpty: boolean;
  /** Counters of the whole harvest; the pass adds its calls, tokens and lines. */
  stats: HarvestStats;
  /** Overrides the extraction model of the settings (a re-run with another model). */
  model?: string;
  /** Overrides the provider of the settings (a re-run with another provider). */
  provider?: ChatProvider;
  /** Keeps each call's prompts and raw answer, and the lines turned down. */
  recorder?: AttemptRecorder;
}

/**
 * An E line that could not be read: it still holds its place in the model's numbering of its
 * entities, which P lines refer to.
 */
export interface UnreadableEntity {
  kind: 'unreadable_entity';
}

export type PassItem = ExtractionRecord | UnreadableEntity;

export interface PassResult {
  /** Accepted records in answer order, with a placeholder for each unreadable E line. */
  records: PassItem[];
  /** The guard that cut the answer short, if one did. */
  tripped: string | null;
}

/** Groups shorter than this are not asked again after an empty answer. */
export const RETRY_EMPTY_MIN_CHARS = 200;

interface Attempt extends PassResult {
  empty: boolean;
}

export async function runPass(request: PassRequest): Promise<PassResult> {
  let attempt = await attemptPass(request);
  if (attempt.empty) {
    request.stats.emptyAnswers++;
    if (request.retryEmpty) {
      attempt = await attemptPass(request);
      if (attempt.empty) request.stats.emptyAnswers++;
    }
  }
  if (attempt.tripped) request.stats.guardsTripped.push(attempt.tripped);
  return { records: attempt.records, tripped: attempt.tripped };
}

async function attemptPass(request: PassRequest): Promise<Attempt> {
  const { stats, recorder } = request;
  request.signal.throwIfAborted();
  const stop = new AbortController();
  const guard = request.guard();
  const splitter = new LineSplitter();
  const records: PassItem[] = [];
  let tripped: string | null = null;
  let lines = 0;
  let finishReason: string | null = null;
  let output = '';
  let model: string | null = null;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const started = performance.now();
  const reject = (reason: string, raw: string) => {
    countRejected(stats, reason);
    recorder?.drop(reason === 'loop_guard' ? 'loop_guard' : 'parser', 'line', raw, reason);
  };

  /** Takes one line; false when a guard tripped. */
  const take = (raw: string): boolean => {
    const parsed = parseLine(raw);
    if (!parsed) return true;
    lines++;
    const verdict = guard.observe(parsed);
    if (verdict.kind === 'trip') {
      tripped = verdict.guard;
      reject('loop_guard', raw);
      return false;
    }
    if (!parsed.ok) {
      reject(parsed.reason, raw);
      if (request.extraction.pass === 'entities' && isEntityLine(parsed.line))
        records.push({ kind: 'unreadable_entity' });
    } else if (verdict.kind === 'reject') reject(verdict.reason, raw);
    else {
      stats.linesParsed++;
      records.push(parsed.record);
    }
    return true;
  };

  stats.llmCalls++;
  try {
    const events = request.llm.stream({
      operation: 'extraction',
      system: request.system,
      messages: [{ role: 'user', content: request.user }],
      extraction: request.extraction,
      signal: AbortSignal.any([request.signal, stop.signal]),
      context: request.context,
      ...(request.model ? { model: request.model } : {}),
      ...(request.provider ? { provider: request.provider } : {}),
    });
    reading: for await (const event of events) {
      if (event.type === 'text') {
        if (recorder) output += event.delta;
        for (const line of splitter.push(event.delta)) {
          if (!take(line)) {
            stop.abort(new Error(`loop guard: ${tripped}`));
            break reading;
          }
        }
      } else if (event.type === 'finish') {
        stats.inputTokens += event.usage.inputTokens;
        stats.outputTokens += event.usage.outputTokens;
        usage.inputTokens = event.usage.inputTokens;
        usage.outputTokens = event.usage.outputTokens;
        finishReason = event.finishReason;
        model = event.model;
      }
    }
  } catch (error) {
    // Our own abort (a guard) is not a failure; the caller's is, and so is anything else.
    if (request.signal.aborted || !stop.signal.aborted) throw error;
  }
  if (tripped === null) {
    for (const line of splitter.flush()) {
      // An answer cut by the token limit ends mid-line: a half record would carry a cut value.
      if (finishReason !== 'length') take(line);
      else if (parseLine(line)) {
        lines++;
        reject('truncated', line);
      }
    }
  }
  recorder?.call({
    pass: request.extraction.pass,
    system: request.system,
    user: request.user,
    output,
    finishReason: tripped ? 'loop_guard' : finishReason,
    model,
    ...usage,
    durationMs: Math.round(performance.now() - started),
    trippedBy: tripped,
  });
  request.signal.throwIfAborted();
  return { records, tripped, empty: lines === 0 };
}
