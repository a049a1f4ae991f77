// `pnpm eval:chat`: chat answers of the builtin provider (no language model: it quotes) over everyday
// technical documents (tests/fixtures/technical), through the HTTP API of a fresh embedded server.
// Uploads every document (auto-confirmed, extracted), asks each question of questions.json through the
// OpenAI-compatible chat API — model `rhizome` is the chat's own retrieval (the builtin turn fuses every
// mode), `rhizome-<mode>` one search mode — and prints per mode the share of questions whose answer
// quotes an answer sentence and whose citations include the question's document, with p50/p95 answer
// times. A benchmark, not a test.
//
//   --data-dir DIR   keep the ingested data there; a later run on the same DIR only asks the questions
//   --modes LIST     comma-separated: `fused` (model rhizome) and search modes (default fused,keyword,semantic,hybrid,graph)
//   --verbose        also print, per question, what each mode's answer got right and its first sentence
//   --json FILE      also write the figures as JSON
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { ChatCompletionBody } from '@rhizome/contracts/api/openai';
import type { EvalClient } from './client.ts';
import {
  log,
  normalised,
  percentile,
  modeList,
  corpusSummary,
  withTechnicalCorpus,
  type TechnicalQuestion,
} from './technical-corpus.ts';

const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    modes: { type: 'string', default: 'fused,keyword,semantic,hybrid,graph' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});

interface Answer {
  quotes: boolean;
  cites: boolean;
  ms: number;
  first: string;
}

async function ask(client: EvalClient, mode: string, question: TechnicalQuestion): Promise<Answer> {
  const started = performance.now();
  const completion = await client.json<ChatCompletionBody>('POST', '/openai/v1/chat/completions', {
    model: mode === 'fused' ? 'rhizome' : `rhizome-${mode}`,
    messages: [{ role: 'user', content: question.question }],
  });
  const ms = performance.now() - started;
  const content = completion.choices[0]?.message.content ?? '';
  const text = normalised(content);
  return {
    quotes: question.answers.some((answer) => text.includes(normalised(answer))),
    cites: completion.citations.some((citation) => citation.filename === question.document),
    ms,
    first: content.split('\n')[0].slice(0, 160),
  };
}

interface ModeFigures {
  mode: string;
  quotes: number;
  cites: number;
  p50Ms: number;
  p95Ms: number;
  answers: Answer[];
}

async function scoreMode(client: EvalClient, questions: TechnicalQuestion[], mode: string): Promise<ModeFigures> {
  const answers: Answer[] = [];
  for (const question of questions) answers.push(await ask(client, mode, question));
  const share = (test: (answer: Answer) => boolean) => answers.filter(test).length / questions.length;
  const times = answers.map((answer) => answer.ms);
  return {
    mode,
    quotes: share((answer) => answer.quotes),
    cites: share((answer) => answer.cites),
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    answers,
  };
}

await withTechnicalCorpus('chat-eval', options['data-dir'], async (corpus) => {
  const { client, documents, questions, times } = corpus;
  const modes = modeList(options.modes!);
  const figures: ModeFigures[] = [];
  for (const mode of modes) {
    log(`asking ${questions.length} questions, ${mode}`);
    figures.push(await scoreMode(client, questions, mode));
  }
  console.log(corpusSummary(corpus));
  console.log('mode       quotes answer  cites document  p50 ms  p95 ms');
  for (const figure of figures)
    console.log(
      `${figure.mode.padEnd(10)} ${figure.quotes.toFixed(3).padStart(13)}  ${figure.cites.toFixed(3).padStart(14)}  ${figure.p50Ms.toFixed(0).padStart(6)}  ${figure.p95Ms.toFixed(0).padStart(6)}`,
    );
  if (options.verbose)
    questions.forEach((question, index) => {
      const marks = figures.map(
        (figure) =>
          `${figure.mode}=${figure.answers[index].quotes ? 'Q' : '-'}${figure.answers[index].cites ? 'C' : '-'}`,
      );
      console.log(`${question.id.padEnd(22)} ${marks.join(' ')}  ${question.question}`);
      console.log(`${' '.repeat(23)}${figures[0].answers[index].first}`);
    });
  if (options.json)
    fs.writeFileSync(
      options.json,
      JSON.stringify(
        { documents, questions: questions.length, times, figures: figures.map(({ answers: _, ...f }) => f) },
        null,
        2,
      ),
    );
});
