import { randomUUID } from 'node:crypto';
import type { ChatCompletionBody, ChatCompletionRequestBody, CompletionUsageBody } from '@rhizome/contracts/api/openai';
import type { ChatEvent, TurnOptions } from '@rhizome/core/chat';
import type { Platform } from '@rhizome/core/platform';
import type { Request, Response } from 'express';
import { openEventStream, type EventStream } from '../http/sse.ts';
import { numberCitations, readableAnswer, sourcesFooter } from './citations.ts';
import { conversationOf, estimatedTokens } from './conversation.ts';
import { answerWithEngine, type EngineAnswer } from './engine-turn.ts';
import type { ModelTarget } from './models.ts';
import { toOpenAiError } from './error-shape.ts';
import { StreamedAnswer } from './streamed-answer.ts';

export interface CompletionRequest {
  platform: Platform;
  target: ModelTarget;
  body: ChatCompletionRequestBody;
  req: Request;
  res: Response;
}

/** OpenAI's metadata values are strings: "true" saves as well as true. */
const wantsSave = (body: ChatCompletionRequestBody) => body.metadata?.save === true || body.metadata?.save === 'true';

const idList = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

/** The sources the answer may draw on, as the metadata's comma-separated ids name them. */
const scopeOf = (body: ChatCompletionRequestBody) => ({
  source_ids: idList(body.metadata?.source_ids),
  tag_ids: idList(body.metadata?.tag_ids),
});

function usageOf(answer: EngineAnswer, prompt: string, completion: string): CompletionUsageBody {
  const prompt_tokens = answer.inputTokens || estimatedTokens(prompt);
  const completion_tokens = answer.outputTokens || estimatedTokens(completion);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** The request's parameters the answering turn applies; the settings decide what is left unset. */
function turnOptionsOf(
  body: ChatCompletionRequestBody,
  target: ModelTarget,
  instructions: string | undefined,
): TurnOptions {
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  return {
    ...(body.temperature != null ? { temperature: body.temperature } : {}),
    ...(maxTokens ? { maxTokens } : {}),
    ...(instructions ? { instructions } : {}),
    ...(target.searchMode ? { searchMode: target.searchMode } : {}),
  };
}

/** Aborted once the client hung up before the answer was complete. */
function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

class Completion {
  readonly id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
  readonly created = Math.floor(Date.now() / 1000);
  readonly conversation;
  readonly prompt: string;

  constructor(private readonly request: CompletionRequest) {
    this.conversation = conversationOf(request.body.messages);
    this.prompt = [...this.conversation.history.map((turn) => turn.content), this.conversation.question].join('\n');
  }

  answer(signal: AbortSignal, onEvent: (event: ChatEvent) => void, onStarted?: () => void): Promise<EngineAnswer> {
    const { platform, target, body } = this.request;
    const { history, question, instructions } = this.conversation;
    return answerWithEngine(platform, target.database, {
      history,
      question,
      turn: turnOptionsOf(body, target, instructions),
      user: body.user,
      save: wantsSave(body),
      scope: scopeOf(body),
      signal,
      onEvent,
      onStarted,
    });
  }

  chunk(
    choice: { delta: Record<string, string>; finish_reason: EngineAnswer['finishReason'] | null },
    extra: Record<string, unknown> = {},
  ): string {
    return JSON.stringify({
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.request.body.model,
      choices: [{ index: 0, ...choice, logprobs: null }],
      ...extra,
    });
  }

  async complete(): Promise<ChatCompletionBody> {
    const answer = await this.answer(clientGone(this.request.res), () => undefined);
    const { text, citations } = readableAnswer(answer.content, answer.chunkCitations);
    return {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.request.body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null },
          finish_reason: answer.finishReason,
          logprobs: null,
        },
      ],
      usage: usageOf(answer, this.prompt, text),
      citations,
      ...(answer.chatId ? { chat_id: answer.chatId } : {}),
    };
  }

  /**
   * Server-sent `chat.completion.chunk` frames as the answer streams (its citations numbered as they
   * close, as the whole completion numbers them), then the numbered sources, the finishing chunk carrying the structured citations, the usage when asked
   * for, and `[DONE]`. A failure after the stream began is an `error` frame, as OpenAI sends it.
   */
  async stream(): Promise<void> {
    const { req, res, body } = this.request;
    const gone = new AbortController();
    let events: EventStream | undefined;
    // Opened once the turn is queued: a refusal before that (no model configured) is a plain HTTP error.
    const open = (): EventStream => {
      if (events) return events;
      events = openEventStream(req, res);
      events.onClose(() => gone.abort());
      events.send(this.chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }));
      return events;
    };
    const readable = new StreamedAnswer();
    let streamed = '';
    const sendText = (text: string) => {
      if (!text) return;
      streamed += text;
      open().send(this.chunk({ delta: { content: text }, finish_reason: null }));
    };
    let answer: EngineAnswer;
    try {
      answer = await this.answer(gone.signal, (event) => sendText(readable.receive(event)), open);
    } catch (error) {
      if (!events) throw error;
      const status = (error as { status?: number }).status ?? 500;
      const message = status === 500 ? 'The answer failed on the server' : (error as Error).message;
      events.send(
        JSON.stringify(toOpenAiError(status, { error: (error as { code?: string }).code ?? 'server_error', message })),
      );
      events.close();
      if (status === 500) throw error;
      return;
    }
    sendText(readable.finish(answer.content, answer.chunkCitations));
    const { citations } = numberCitations(answer.content, answer.chunkCitations);
    sendText(sourcesFooter(citations));
    const stream = open();
    stream.send(
      this.chunk(
        { delta: {}, finish_reason: answer.finishReason },
        { citations, ...(answer.chatId ? { chat_id: answer.chatId } : {}) },
      ),
    );
    if (body.stream_options?.include_usage) {
      stream.send(
        JSON.stringify({
          id: this.id,
          object: 'chat.completion.chunk',
          created: this.created,
          model: body.model,
          choices: [],
          usage: usageOf(answer, this.prompt, streamed),
        }),
      );
    }
    stream.send('[DONE]');
    stream.close();
  }
}

/** POST /chat/completions: a JSON completion, or a stream of chunks with `stream: true`. */
export async function chatCompletion(request: CompletionRequest): Promise<ChatCompletionBody | undefined> {
  const completion = new Completion(request);
  if (!request.body.stream) return completion.complete();
  await completion.stream();
  return undefined;
}
