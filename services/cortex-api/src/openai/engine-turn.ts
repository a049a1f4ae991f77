import { ApiError } from '@rhizome/contracts/errors';
import {
  chatModule,
  subscribeChatEvents,
  type ChatEvent,
  type ChunkCitation,
  type ScopeInput,
  type TurnOptions,
} from '@rhizome/core/chat';
import type { DatabaseHandle, Platform } from '@rhizome/core/platform';
import type { Turn } from './conversation.ts';

type DoneEvent = Extract<ChatEvent, { type: 'done' }>;

export interface EngineAnswer {
  content: string;
  chunkCitations: Record<string, ChunkCitation>;
  inputTokens: number;
  outputTokens: number;
  /** 'length' when the output token limit (max_tokens) cut the answer. */
  finishReason: 'stop' | 'length';
  /** The Rhizome chat holding the exchange, when it was kept. */
  chatId: string | null;
}

export interface EngineTurnOptions {
  history: Turn[];
  question: string;
  /** The client's sampling, instructions and search mode for the answering turn. */
  turn: TurnOptions;
  /** Who asked, as the client names them: kept on the question's message. */
  user?: string;
  /** Keep the exchange as a Rhizome chat instead of removing it once answered. */
  save: boolean;
  /** The sources (and tagged sources) the answer may draw on; none given, every source. */
  scope?: ScopeInput;
  /** Aborted when the client went away: the turn is cancelled. */
  signal: AbortSignal;
  /** Each event of the turn as it arrives: its text deltas, and what its tools retrieved. */
  onEvent(event: ChatEvent): void;
  /** Called once the turn is queued: from here on, failures arrive as the turn's error. */
  onStarted?(): void;
}

const titleOf = (question: string) => {
  const line = question.trim().split('\n')[0];
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

/** The answering failed in the model or the retrieval: a gateway-style 502 names why. */
const turnFailed = (event: Extract<ChatEvent, { type: 'error' }>) =>
  new ApiError(502, event.error_code, event.error, event.error_details ?? null);

/**
 * Answers through the same chat engine as the chats API — retrieval tools, citation repair, the
 * configured provider or the builtin one — by running the exchange as a chat turn on the queue. The
 * chat exists for the turn only, unless it is to be saved.
 */
export async function answerWithEngine(
  platform: Platform,
  database: DatabaseHandle,
  options: EngineTurnOptions,
): Promise<EngineAnswer> {
  const chats = chatModule.service!(platform, database);
  const chat = await chats.create({ title: titleOf(options.question), ...options.scope });
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    for (const turn of options.history) await chats.addMessage(chat.id, turn);
    let settle!: { resolve(done: DoneEvent): void; reject(error: Error): void };
    const finished = new Promise<DoneEvent>((resolve, reject) => (settle = { resolve, reject }));
    // A failure arriving before anyone awaits it is still reported, by the await below.
    finished.catch(() => undefined);
    // Subscribed before the turn starts, so no event of it is missed.
    unsubscribe = await subscribeChatEvents(platform.pubsub, chat.id, (event) => {
      options.onEvent(event);
      if (event.type === 'done') settle.resolve(event);
      else if (event.type === 'error') settle.reject(turnFailed(event));
    });
    await chats.send(
      chat.id,
      { content: options.question },
      { turn: options.turn, messageMetadata: options.user ? { user: options.user } : undefined },
    );
    options.onStarted?.();
    const cancel = () => void chats.cancel(chat.id).catch(() => undefined);
    options.signal.addEventListener('abort', cancel, { once: true });
    if (options.signal.aborted) cancel();
    try {
      const done = await finished;
      const debug = done.llm_debug ?? {};
      return {
        content: done.content,
        chunkCitations: (done.chunk_citations ?? {}) as Record<string, ChunkCitation>,
        inputTokens: Number(debug.input_tokens) || 0,
        outputTokens: Number(debug.output_tokens) || 0,
        finishReason: debug.finish_reason === 'length' ? 'length' : 'stop',
        chatId: options.save ? chat.id : null,
      };
    } finally {
      options.signal.removeEventListener('abort', cancel);
    }
  } finally {
    await unsubscribe?.();
    if (!options.save) await chats.delete(chat.id).catch(() => undefined);
  }
}
