import readline from 'node:readline';
import { modelName, openAiEndpoints, type ChatCompletionRequestBody } from '@rhizome/contracts/api/openai';
import { searchTypes, type SearchType } from '@rhizome/contracts/api/search';
import { Option, type Command } from 'commander';
import { CliFailure } from '../exit-codes.ts';
import { repeated } from '../options.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

interface AskOptions {
  database?: string;
  mode?: SearchType;
  save?: boolean;
  source: string[];
  tag: string[];
  system?: string;
}

type Message = ChatCompletionRequestBody['messages'][number];

interface Chunk {
  choices?: { delta?: { content?: string } }[];
  error?: { message: string };
}

const modelOf = (options: AskOptions) => modelName({ mode: options.mode ?? null, database: options.database ?? null });

/** Saving and the scope travel in the request's metadata, whose values are strings. */
function metadataOf(options: AskOptions): ChatCompletionRequestBody['metadata'] {
  const metadata = {
    ...(options.save ? { save: true } : {}),
    ...(options.source.length ? { source_ids: options.source.join(',') } : {}),
    ...(options.tag.length ? { tag_ids: options.tag.join(',') } : {}),
  };
  return Object.keys(metadata).length ? metadata : undefined;
}

/** The conversation so far, below the user's own instructions when they gave some. */
const withSystem = (messages: Message[], options: AskOptions): Message[] =>
  options.system ? [{ role: 'system', content: options.system }, ...messages] : messages;

/**
 * One answer through the server's OpenAI-compatible endpoint, written as it streams: the server numbers
 * the citations inline (`[1]`) and ends the answer with its numbered sources, which read as footnotes here.
 */
async function streamAnswer(remote: Remote, messages: Message[], options: AskOptions): Promise<string> {
  let answer = '';
  const metadata = metadataOf(options);
  const body = {
    model: modelOf(options),
    messages: withSystem(messages, options),
    stream: true,
    ...(metadata ? { metadata } : {}),
  };
  await remote.client.streamCall(openAiEndpoints.chatCompletions, { body }, (data) => {
    if (data === '[DONE]') return;
    const chunk = JSON.parse(data) as Chunk;
    if (chunk.error) throw new CliFailure(chunk.error.message);
    const text = chunk.choices?.[0]?.delta?.content ?? '';
    answer += text;
    remote.io.write(text);
  });
  remote.io.write('\n');
  return answer;
}

async function ask(remote: Remote, question: string, options: AskOptions): Promise<void> {
  const messages: Message[] = [{ role: 'user', content: question }];
  if (!remote.json) {
    await streamAnswer(remote, messages, options);
    return;
  }
  const metadata = metadataOf(options);
  const completion = await remote.client.call(openAiEndpoints.chatCompletions, {
    body: { model: modelOf(options), messages: withSystem(messages, options), ...(metadata ? { metadata } : {}) },
  });
  printJson(remote.io, {
    answer: completion.choices[0]?.message.content ?? '',
    citations: completion.citations,
    usage: completion.usage,
    chat_id: completion.chat_id ?? null,
  });
}

/** Questions read line by line, each answered with the conversation so far; an empty line or end of input ends it. */
async function chat(remote: Remote, options: AskOptions): Promise<void> {
  const terminal = Boolean(process.stdin.isTTY);
  const lines = readline.createInterface({ input: process.stdin, output: process.stderr, terminal });
  const messages: Message[] = [];
  lines.setPrompt('\n> ');
  if (terminal) {
    remote.io.err('Ask about your knowledge base; an empty line or Ctrl-D ends the chat.');
    lines.prompt();
  }
  try {
    for await (const question of lines) {
      if (!question.trim()) return;
      messages.push({ role: 'user', content: question });
      messages.push({ role: 'assistant', content: await streamAnswer(remote, messages, options) });
      if (terminal) lines.prompt();
    }
  } finally {
    lines.close();
  }
}

export function registerAsk(program: Command, runner: CommandRunner): void {
  const scope = (command: Command) =>
    command
      .option('-d, --database <name>', 'answer from this database instead of the active one')
      .addOption(
        new Option('--mode <mode>', "search only this way while answering (default: the engine's own mix)").choices(
          searchTypes,
        ),
      )
      .option('--save', 'keep the exchange as a chat in Rhizome')
      .option('-s, --source <id>', 'answer from this source only (repeatable)', repeated, [])
      .option('-t, --tag <id>', 'answer from the sources with this tag id (repeatable)', repeated, [])
      .option('-S, --system <instructions>', 'instructions for the answers, below the citation rules');
  scope(
    program
      .command('ask')
      .description('Ask a question: the answer streams, its sources follow as footnotes')
      .argument('<question>'),
  ).action(runner.remote((remote, question: string, options: AskOptions) => ask(remote, question, options)));
  scope(
    program
      .command('chat')
      .description('Chat with the knowledge base: one question per line, or one MESSAGE answered at once')
      .argument('[message]', 'a question to answer and return (as ask)'),
  ).action(
    runner.remote((remote, message: string | undefined, options: AskOptions) =>
      message ? ask(remote, message, options) : chat(remote, options),
    ),
  );
}
