import type { ChatProvider } from '@rhizome/contracts/settings';

/**
 * The language-model port. Every feature that needs a model (chat, extraction, titles, vision) calls
 * `LlmService` (service.ts), which picks the adapter the settings name; adapters implement `LlmAdapter`.
 */

/** What a call is for: picks the model (chat vs extraction vs vision) and labels the metrics. */
export type LlmOperation = 'chat' | 'extraction' | 'title' | 'vision' | 'tool' | 'verify';

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** An image given to the model with a user message (vision): the file's bytes and its media type. */
export interface ImageInput {
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mediaType: string;
  data: Uint8Array;
}

export type ChatMessage =
  /** `images` go to the model with the text; an adapter whose provider cannot see images refuses the call. */
  | { role: 'user'; content: string; images?: ImageInput[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/**
 * Structured form of an extraction pass. Real models read the prompt; the builtin provider has no
 * model and works from this instead, answering in the same line grammar (`line-grammar.ts`).
 */
export type ExtractionTask =
  | { pass: 'entities'; sentences: string[]; nodeTypes: string[] }
  | {
      pass: 'relationships';
      sentences: string[];
      entities: { name: string; type: string; aliases?: string[] }[];
      edgeTypes: string[];
    };

/** A retrieved passage offered to a chat answer; the builtin provider answers extractively from these. */
export interface RetrievedPassage {
  text: string;
  /** The citation marker the answer writes after a sentence taken from this passage, e.g. `[1]`. */
  marker: string;
  /** Part of a reference list, a table of contents or a licence block: an answer quotes it only when nothing else answers. */
  boilerplate?: boolean;
}

/** Who a call is made for: sums per source and per chat, and attribution in /llm/stats. */
export interface LlmCallContext {
  database?: string;
  sourceId?: string;
  chatId?: string;
  taskId?: string;
}

export interface ChatRequest {
  operation: LlmOperation;
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  tools?: ToolDefinition[];
  thinking?: boolean;
  /** Overrides the model the settings name for this operation. */
  model?: string;
  /** Overrides the provider the settings name (a chunk re-run with another provider); its model unless `model` is given. */
  provider?: ChatProvider;
  signal?: AbortSignal;
  /** Whole-call limit in ms (default `llm.llm_request_timeout`). */
  timeoutMs?: number;
  extraction?: ExtractionTask;
  passages?: RetrievedPassage[];
  context?: LlmCallContext;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'aborted' | 'other';

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: TokenUsage;
  provider: ChatProvider;
  model: string;
  /** Which local instance answered (localllm only). */
  instanceId?: string;
  durationMs: number;
}

export type ChatStreamEvent =
  | { type: 'text'; delta: string }
  /** A thinking model's reasoning, when the provider streams it (not part of the answer). */
  | { type: 'reasoning'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'finish'; finishReason: FinishReason; usage: TokenUsage; model: string; instanceId?: string };

/** A request after the service resolved model, limits and signal; what an adapter receives. */
export interface AdapterRequest extends Omit<
  ChatRequest,
  'model' | 'signal' | 'timeoutMs' | 'temperature' | 'maxTokens'
> {
  model: string;
  temperature: number;
  maxTokens: number;
  signal: AbortSignal;
}

export interface ModelsCheck {
  /** The provider answers and accepts our credentials. */
  verified: boolean;
  /** Configured models the provider does not list. */
  missingModels: string[];
  message: string;
}

export interface LlmAdapter {
  readonly provider: ChatProvider;
  /** One attempt; the service adds retries, timeouts and metrics. Throws `LlmError` on failure. */
  stream(request: AdapterRequest): AsyncIterable<ChatStreamEvent>;
  /** Whether the provider is reachable with these settings and has the given models. */
  check(models: string[], signal: AbortSignal): Promise<ModelsCheck>;
}
