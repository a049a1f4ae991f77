import { randomBytes } from 'node:crypto';
import type { Settings } from '@rhizome/contracts/settings';
import type { PubSub } from '@rhizome/queue';
import type { LlmService } from '../providers/index.ts';
import type { ChatMessage, ChatStreamEvent, RetrievedPassage, TokenUsage, ToolCall } from '../providers/index.ts';
import type { SearchContext, SearchType } from '../search/index.ts';
import type { Db } from '../storage/index.ts';
import { awaitDecision, needsApproval, requestApproval } from './approval.ts';
import { markBoilerplate } from './boilerplate.ts';
import { compactToolResults, estimateTokens, fitHistory } from './context-budget.ts';
import { historyShare, type HistoryShare } from './context-record.ts';
import type { ChatEvent, ToolCallSummary } from './events.ts';
import { RetrievalLedger } from './ledger.ts';
import { markEntityMentions } from './mentions.ts';
import { systemPrompt } from './prompt.ts';
import { scopeOf, type ChatRow, type MessageRow } from './repo.ts';
import { fusedSearch } from './extractive-retrieval.ts';
import { ThinkBlockSplitter } from './think-blocks.ts';
import { chatTools, runTool, type ChatTool, type ToolContext } from './tools.ts';

/**
 * One chat turn: the model answers with the chat's tools in a bounded loop —
 * at most `chat.max_tool_iterations` rounds and `chat.max_total_tool_calls` calls, a final answer
 * without tools forced at the limits — streaming its text as `content` events. The builtin provider
 * calls no tools, so its turn runs every search mode itself and quotes the best sentences of what they found.
 * Everything the turn produced so far is on `TurnState`, so a cancelled turn still has its partial answer.
 */

export interface TurnDeps {
  llm: LlmService;
  pubsub: PubSub;
  settings: Settings;
  search: SearchContext;
  emit(event: ChatEvent): Promise<void>;
}

/** What the client asked of one turn beyond its question; unset fields keep the settings' behaviour. */
export interface TurnOptions {
  /** Sampling temperature of every model call of the turn. */
  temperature?: number;
  /** Output token limit of each model call of the turn. */
  maxTokens?: number;
  /** The client's instructions, appended to the system prompt below its rules. */
  instructions?: string;
  /** The mode every retrieval tool searches with, instead of each tool's own. */
  searchMode?: SearchType;
}

export interface TurnInput {
  db: Db;
  chat: ChatRow;
  turnId: string;
  taskId: string;
  history: MessageRow[];
  options: TurnOptions;
  signal: AbortSignal;
  /** Throws once the turn was cancelled; called between steps. */
  checkCancelled(): Promise<void>;
}

export interface ToolCallRecord extends ToolCallSummary {
  status: 'completed' | 'rejected' | 'failed' | 'skipped';
  duration_ms: number;
}

export class TurnState {
  text = '';
  thinking = '';
  readonly ledger = new RetrievalLedger();
  readonly toolCalls: ToolCallRecord[] = [];
  readonly warnings: string[] = [];
  readonly usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  iterations = 0;
  model = '';
  /** The window and the conversation sent, once the history was fitted. */
  history: HistoryShare | null = null;
  /** Why the last model call stopped: 'length' when the output token limit cut the answer. */
  finishReason: Extract<ChatStreamEvent, { type: 'finish' }>['finishReason'] | null = null;
}

const maxEventResultChars = 2000;
/** A tool result the model reads is cut here; the compaction cuts older ones further when the window fills. */
const maxToolResultChars = 12_000;

const newToolCallId = () => `tc_${randomBytes(8).toString('hex')}`;

/** The conversation up to and including its last user message, as the model port's messages. */
function conversation(history: readonly MessageRow[]): ChatMessage[] {
  const lastUser = history.map((message) => message.role).lastIndexOf('user');
  return history
    .slice(0, lastUser + 1)
    .flatMap((message): ChatMessage[] =>
      message.role === 'user' || message.role === 'assistant' ? [{ role: message.role, content: message.content }] : [],
    );
}

class ChatTurn {
  private readonly state: TurnState;
  private readonly context: ToolContext;
  private readonly seenCalls = new Set<string>();

  constructor(
    private readonly deps: TurnDeps,
    private readonly input: TurnInput,
    state: TurnState,
  ) {
    this.state = state;
    this.context = {
      search: deps.search,
      scope: { sourceIds: scopeOf(input.chat), templateId: null },
      ledger: state.ledger,
      searchMode: input.options.searchMode ?? null,
    };
  }

  async run(): Promise<void> {
    const system = systemPrompt(scopeOf(this.input.chat), this.input.options.instructions);
    const fit = fitHistory(this.deps.settings, system, conversation(this.input.history));
    this.state.history = historyShare(fit, system);
    await this.deps.emit({
      type: 'context_info',
      context_window: fit.window,
      history_budget_tokens: fit.budgetTokens,
      history_messages: fit.messages.length,
      dropped_messages: fit.dropped,
    });
    if (fit.dropped)
      await this.warn('context_overflow', `${fit.dropped} older message(s) left out to fit the context window`);
    if (this.deps.settings.llm.chat_provider === 'builtin') await this.runExtractive(fit.messages);
    else await this.runToolLoop(system, fit.messages, fit.window);
  }

  private async warn(
    kind: string,
    message: string,
    extra: { iteration?: number; duplicates?: string[] } = {},
  ): Promise<void> {
    this.state.warnings.push(message);
    await this.deps.emit({ type: 'warning', kind, message, ...extra });
  }

  /** Streams one model call, publishing its text; returns the tool calls it asked for. */
  private async stream(request: {
    system?: string;
    messages: ChatMessage[];
    tools?: ChatTool[];
    passages?: RetrievedPassage[];
  }): Promise<ToolCall[]> {
    const calls: ToolCall[] = [];
    const { temperature, maxTokens } = this.input.options;
    const stream = this.deps.llm.stream({
      operation: 'chat',
      system: request.system,
      messages: request.messages,
      tools: request.tools?.map((tool) => tool.definition),
      passages: request.passages,
      temperature,
      maxTokens,
      signal: this.input.signal,
      context: { database: this.deps.search.database, chatId: this.input.chat.id, taskId: this.input.taskId },
    });
    const thinkBlocks = new ThinkBlockSplitter(this.state.thinking !== '');
    for await (const event of stream) {
      if (event.type === 'text') {
        await this.publishText(thinkBlocks.feed(event.delta));
      } else if (event.type === 'reasoning') {
        await this.publishText(thinkBlocks.reasoning(event.delta));
      } else if (event.type === 'tool_call') {
        calls.push(event.call);
      } else {
        this.state.usage.inputTokens += event.usage.inputTokens;
        this.state.usage.outputTokens += event.usage.outputTokens;
        this.state.model = event.model;
        this.state.finishReason = event.finishReason;
      }
      // Cancellation lands between deltas: what streamed so far is the partial answer.
      this.input.signal.throwIfAborted();
    }
    await this.publishText(thinkBlocks.flush());
    return calls;
  }

  /** Adds streamed answer text and thinking to the turn and publishes each. */
  private async publishText({ text, thinking }: { text: string; thinking: string }): Promise<void> {
    if (thinking) {
      this.state.thinking += thinking;
      await this.deps.emit({ type: 'thinking_delta', thinking });
    }
    if (text) {
      this.state.text += text;
      await this.deps.emit({ type: 'content', delta: text, accumulated: this.state.text });
    }
  }

  private async runToolLoop(system: string, history: ChatMessage[], window: number): Promise<void> {
    const {
      max_tool_iterations: maxIterations,
      max_total_tool_calls: maxCalls,
      max_tools: maxTools,
    } = this.deps.settings.chat;
    const tools = chatTools.slice(0, maxTools);
    const messages = [...history];
    const fixedTokens = estimateTokens(system);
    for (;;) {
      await this.input.checkCancelled();
      const exhausted = this.state.iterations >= maxIterations || this.state.toolCalls.length >= maxCalls;
      if (exhausted)
        await this.warn('tool_limit', 'tool limits reached: answering with what was retrieved', {
          iteration: this.state.iterations,
        });
      const before = this.state.text.length;
      const calls = await this.stream({ system, messages, tools: exhausted ? undefined : tools });
      if (!calls.length || exhausted) return;
      this.state.iterations += 1;
      const iteration = this.state.iterations;
      // Our ids, not the model's: those repeat across turns with some providers, and approvals are keyed by them.
      const summaries = calls.map((call) => ({ id: newToolCallId(), name: call.name, arguments: call.arguments }));
      await this.deps.emit({ type: 'tool_calls', tool_calls: summaries });
      messages.push({ role: 'assistant', content: this.state.text.slice(before), toolCalls: calls });
      const duplicates: string[] = [];
      for (const [index, call] of calls.entries()) {
        const result = await this.toolResult(summaries[index], iteration, tools, duplicates);
        messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: result });
      }
      if (duplicates.length)
        await this.warn('duplicate_tool_calls', 'repeated tool calls were answered from the earlier result', {
          iteration,
          duplicates,
        });
      await this.deps.emit({
        type: 'iteration_progress',
        iteration,
        tool_count: calls.length,
        total_tool_calls: this.state.toolCalls.length,
      });
      if (compactToolResults(this.deps.settings, window, fixedTokens, messages, calls.length)) {
        await this.warn('context_overflow', 'older tool results were shortened to fit the context window', {
          iteration,
        });
      }
    }
  }

  /** What the model reads back for one call: the tool's output, or why it did not run. */
  private async toolResult(
    call: ToolCallSummary,
    iteration: number,
    offered: readonly ChatTool[],
    duplicates: string[],
  ): Promise<string> {
    const tool = offered.find((candidate) => candidate.definition.name === call.name);
    if (!tool) {
      await this.warn('unknown_tool', `the model asked for a tool it was not offered: ${call.name}`, { iteration });
      return `Error: there is no tool named '${call.name}'. Available: ${offered.map((candidate) => candidate.definition.name).join(', ')}.`;
    }
    const key = `${call.name}:${JSON.stringify(call.arguments)}`;
    if (this.seenCalls.has(key)) {
      duplicates.push(call.name);
      return 'This exact call was already made in this turn; its result is above. Use it, or call with different arguments.';
    }
    this.seenCalls.add(key);
    if (this.state.toolCalls.length >= this.deps.settings.chat.max_total_tool_calls)
      return 'Error: the tool call limit of this turn is reached; answer now.';
    return this.execute(call.id, tool, call.arguments, iteration);
  }

  /** Runs a tool after its approval when the settings ask for one; records and publishes it. */
  private async execute(id: string, tool: ChatTool, args: Record<string, unknown>, iteration: number): Promise<string> {
    const name = tool.definition.name;
    const record: ToolCallRecord = { id, name, arguments: args, status: 'completed', duration_ms: 0 };
    this.state.toolCalls.push(record);
    const { tool_approval: mode, tool_approval_timeout_seconds: timeoutSeconds } = this.deps.settings.chat;
    if (needsApproval(mode, tool.mutating)) {
      const { db, chat, turnId, signal } = this.input;
      await requestApproval(db, { chatId: chat.id, turnId, toolCallId: id, toolName: name, arguments: args });
      await this.deps.emit({
        type: 'tool_approval_required',
        tool_call_id: id,
        tool_name: name,
        arguments: args,
        iteration,
      });
      const decision = await awaitDecision(db, this.deps.pubsub, chat.id, id, timeoutSeconds * 1000, signal);
      if (decision !== 'approve') {
        record.status = 'rejected';
        await this.deps.emit({ type: 'tool_rejected', tool_call_id: id, tool_name: name, decision });
        return decision === 'timeout'
          ? 'The operator did not approve this tool call in time; it was not run.'
          : 'The operator rejected this tool call; it was not run.';
      }
    }
    await this.deps.emit({ type: 'tool_start', tool: name, tool_call_id: id, arguments: args, iteration });
    const started = performance.now();
    const known = this.state.ledger.chunks().length;
    const output = await runTool(tool, this.context, args);
    record.duration_ms = Math.round(performance.now() - started);
    const retrieved = this.state.ledger.chunks().slice(known);
    if (retrieved.length) await this.deps.emit({ type: 'retrieved_chunks', chunks: retrieved });
    const result =
      output.length > maxToolResultChars ? `${output.slice(0, maxToolResultChars)}\n[… result cut]` : output;
    await this.deps.emit({
      type: 'tool_result',
      tool: name,
      tool_call_id: id,
      result: result.slice(0, maxEventResultChars),
      duration_ms: record.duration_ms,
    });
    return result;
  }

  /**
   * Builtin: every search mode for the question (or the turn's mode), their passages fused, then the
   * sentences that best answer it, each with its citation marker (extractive-retrieval.ts says why).
   */
  private async runExtractive(history: ChatMessage[]): Promise<void> {
    const question = history.filter((message) => message.role === 'user').at(-1)?.content ?? '';
    this.state.iterations = 1;
    const args = { query: question.slice(0, 2000) };
    const id = newToolCallId();
    await this.deps.emit({
      type: 'tool_calls',
      tool_calls: [{ id, name: fusedSearch.definition.name, arguments: args }],
    });
    await this.execute(id, fusedSearch, args, 1);
    await this.input.checkCancelled();
    const passages: RetrievedPassage[] = [];
    for (const chunk of this.state.ledger.chunks()) {
      const [from, to] = this.state.ledger.shownSentences(chunk);
      chunk.sentences
        .slice(from, to)
        .forEach((sentence, index) =>
          passages.push({ text: sentence, marker: `[[cite:${chunk.alias}:S${from + index + 1}|${chunk.filename}]]` }),
        );
    }
    await this.stream({ messages: history, passages: markBoilerplate(passages) });
    this.state.text = markEntityMentions(this.state.text, this.state.ledger.nodes.values());
  }
}

export async function runTurn(deps: TurnDeps, input: TurnInput, state: TurnState): Promise<void> {
  await new ChatTurn(deps, input, state).run();
}
