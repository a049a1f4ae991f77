import { LlmError } from '../errors.ts';
import { formatEntityLine, formatPropertyLine, formatRelationshipLine } from '../line-grammar.ts';
import type { AdapterRequest, ChatStreamEvent, LlmAdapter, LlmOperation, ModelsCheck, TokenUsage } from '../port.ts';
import { extractiveAnswer, NOTHING_RELEVANT, titleFrom } from './answers.ts';
import { extractEntities } from './entities.ts';
import { loadBuiltinNlp, type BuiltinNlp } from './nlp.ts';
import { extractRelationships } from './relationships.ts';

/**
 * The `builtin` provider: no model, only NLP (docs/decisions/0027). Extraction answers in the same line grammar
 * a model writes, chat quotes the retrieved passages, titles are the question's opening words.
 * Tools in a request are ignored: it never calls one. A request with images fails (bad_request): it has no vision.
 */

const cannotDo: Partial<Record<LlmOperation, string>> = {
  vision: 'describe images',
  tool: 'plan tool calls',
  extraction: 'follow a free-form extraction prompt',
  verify: 'verify answers',
};

function unsupported(operation: LlmOperation): string {
  return `The builtin provider has no language model, so it cannot ${cannotDo[operation] ?? operation}. Configure a model provider (localllm, openai, anthropic or gemini) to use this feature.`;
}

/** Rough token count: about 1.3 tokens per whitespace-separated word, as English BPE vocabularies run. */
function estimateTokens(texts: readonly string[]): number {
  const words = texts.reduce((sum, text) => sum + (text.match(/\S+/g)?.length ?? 0), 0);
  return Math.ceil(words * 1.3);
}

function inputTexts(request: AdapterRequest): string[] {
  const extraction = request.extraction;
  return [
    request.system ?? '',
    ...request.messages.map((message) => message.content),
    ...(request.passages ?? []).map((passage) => passage.text),
    ...(extraction?.sentences ?? []),
    ...(extraction?.pass === 'relationships' ? extraction.entities.map((entity) => entity.name) : []),
  ];
}

function userMessage(request: AdapterRequest, which: 'first' | 'last'): string {
  const users = request.messages.filter((message) => message.role === 'user');
  return (which === 'first' ? users[0] : users[users.length - 1])?.content ?? '';
}

/** The output, cut where it is streamed: one piece per line or quoted sentence. */
function answer(nlp: BuiltinNlp, request: AdapterRequest): string[] {
  const extraction = request.extraction;
  if (extraction?.pass === 'entities') {
    return extractEntities(nlp, extraction.sentences, extraction.nodeTypes).map(({ properties, ...entity }, index) =>
      [
        formatEntityLine(entity),
        ...Object.entries(properties).map(([key, value]) => formatPropertyLine({ entityIndex: index, key, value })),
      ]
        .map((line) => `${line}\n`)
        .join(''),
    );
  }
  if (extraction?.pass === 'relationships')
    return extractRelationships(nlp, extraction).map((relationship) => `${formatRelationshipLine(relationship)}\n`);
  if (request.operation === 'title') return [titleFrom(userMessage(request, 'first'))];
  if (request.operation === 'chat') {
    const sentences = extractiveAnswer(nlp, userMessage(request, 'last'), request.passages ?? []);
    return sentences.length === 0
      ? [NOTHING_RELEVANT]
      : sentences.map((sentence, i) => (i === 0 ? sentence : ` ${sentence}`));
  }
  return [unsupported(request.operation)];
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new LlmError('cancelled', 'builtin provider: request cancelled');
}

export interface BuiltinLlmAdapterOptions {
  /** Told once, when this adapter's first request has loaded the NLP models. */
  onNlpLoaded?: (loadMs: number) => void;
}

export class BuiltinLlmAdapter implements LlmAdapter {
  readonly provider = 'builtin' as const;
  private reportedLoad = false;

  constructor(private readonly options: BuiltinLlmAdapterOptions = {}) {}

  async *stream(request: AdapterRequest): AsyncIterable<ChatStreamEvent> {
    throwIfAborted(request.signal);
    // It cannot see an image, and answering as if it had would pass its words off as a description.
    if (request.messages.some((message) => message.role === 'user' && message.images?.length))
      throw new LlmError('bad_request', unsupported('vision'));
    const nlp = await loadBuiltinNlp();
    if (!this.reportedLoad) {
      this.reportedLoad = true;
      this.options.onNlpLoaded?.(nlp.loadMs);
    }
    throwIfAborted(request.signal);
    const pieces = answer(nlp, request);
    for (const delta of pieces) {
      throwIfAborted(request.signal);
      yield { type: 'text', delta };
    }
    throwIfAborted(request.signal);
    const usage: TokenUsage = {
      inputTokens: estimateTokens(inputTexts(request)),
      outputTokens: estimateTokens(pieces),
    };
    yield { type: 'finish', finishReason: 'stop', usage, model: 'builtin' };
  }

  async check(_models: string[], _signal: AbortSignal): Promise<ModelsCheck> {
    return { verified: true, missingModels: [], message: 'builtin provider: no model needed' };
  }
}
