import type { Settings } from '@rhizome/contracts/settings';
import type { LlmService } from '../providers/index.ts';

/**
 * Chat titles: one non-streaming call on the first user message. The reply's last
 * non-empty line is taken, quotes, emphasis and a final period stripped; more than 10 words is a
 * model thinking aloud and is discarded; otherwise at most 6 words are kept. A title that stops
 * short — cut here, or the question's opening words only — ends with "…".
 */

const maxTitleWords = 6;
const leakedThinkingWords = 10;

const instruction =
  'Write a title of 3 to 6 words for a conversation that begins with the user message below. Reply with the title only, no quotes, no final period.';

export function cleanTitle(reply: string): string | null {
  const line =
    reply
      .split('\n')
      .map((piece) => piece.trim())
      .filter(Boolean)
      .at(-1) ?? '';
  const stripped = line
    .replace(/^(title\s*:\s*)/i, '')
    .replace(/[*"“”'`#]/g, '')
    .replace(/[.\s]+$/, '')
    .trim();
  const words = stripped.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > leakedThinkingWords) return null;
  if (words.length <= maxTitleWords) return words.join(' ');
  return `${words
    .slice(0, maxTitleWords)
    .join(' ')
    .replace(/[\s\p{P}]+$/u, '')}…`;
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The title of a chat opened by `question`: the cleaned reply, with "…" when it is the question's opening words only. */
export function titleFor(reply: string, question: string): string | null {
  const title = cleanTitle(reply);
  if (!title || title.endsWith('…')) return title;
  const [titleWords, questionWords] = [wordsOf(title), wordsOf(question)];
  const opensQuestion = titleWords.every((word, index) => questionWords[index] === word);
  return opensQuestion && questionWords.length > titleWords.length ? `${title}…` : title;
}

/** A title for a conversation opened by `firstMessage`, or null when the model gave none usable. */
export async function generateTitle(
  llm: LlmService,
  settings: Settings,
  firstMessage: string,
  context: { database: string; chatId: string },
): Promise<string | null> {
  const result = await llm.complete({
    operation: 'title',
    system: instruction,
    messages: [{ role: 'user', content: firstMessage.slice(0, settings.chat_context.title_generation_max_chars) }],
    maxTokens: 64,
    thinking: false,
    timeoutMs: settings.timeouts.llm_chat_wait * 1000,
    context,
  });
  return titleFor(result.text, firstMessage);
}
