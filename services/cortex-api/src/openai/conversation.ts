import { ApiError, ErrorCode } from '@rhizome/contracts/errors';
import type { OpenAiMessageBody } from '@rhizome/contracts/api/openai';

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** A message's text: a string, or its text parts joined (images and other parts are not read). */
export function textOf(message: OpenAiMessageBody): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
}

export interface Conversation {
  /** The user and assistant messages before the question. */
  history: Turn[];
  question: string;
  /** The system and developer messages, joined: extra instructions, subordinate to Rhizome's rules. */
  instructions: string | undefined;
}

const instructionRoles = new Set<OpenAiMessageBody['role']>(['system', 'developer']);

/**
 * The exchange the knowledge base answers: the user and assistant messages, ending with the question.
 * System and developer messages become instructions the engine appends below its own rules (cite what
 * was retrieved, only that), which they cannot replace; tool messages are not read.
 */
export function conversationOf(messages: readonly OpenAiMessageBody[]): Conversation {
  const turns = messages.flatMap((message): Turn[] =>
    message.role === 'user' || message.role === 'assistant' ? [{ role: message.role, content: textOf(message) }] : [],
  );
  const last = turns.at(-1);
  if (!last || last.role !== 'user' || !last.content.trim()) {
    throw new ApiError(
      400,
      ErrorCode.validationError,
      'The last user or assistant message must be a user message with text: it is the question answered',
      { field: 'messages' },
    );
  }
  const instructions = messages
    .filter((message) => instructionRoles.has(message.role))
    .map(textOf)
    .filter((text) => text.trim())
    .join('\n\n');
  return { history: turns.slice(0, -1), question: last.content, instructions: instructions || undefined };
}

/** What a prompt of this many characters counts, when the provider reports no token usage (the builtin one). */
export const estimatedTokens = (text: string) => Math.ceil(text.length / 4);
