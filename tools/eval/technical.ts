// `pnpm eval:technical`: retrieval over everyday technical documents (tests/fixtures/technical: man
// pages, READMEs, a copyright history, a CSV, an HTML page …) through the HTTP API of a fresh embedded
// server. Uploads every document (auto-confirmed, extracted), asks the questions of questions.json in
// each search mode and prints, per mode, how often a passage holding the answer is the first result
// and among the first 5 (results of any kind: an entity ranked above the passage pushes it down), with
// p50/p95 query times and the ingest time. A benchmark, not a test.
//
//   --data-dir DIR   keep the ingested data there; a later run on the same DIR only asks the questions
//   --modes LIST     comma-separated search modes (default keyword,semantic,hybrid,graph)
//   --verbose        also print, per question and mode, the rank of the first answer passage
//   --json FILE      also write the figures as JSON
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { EvalClient } from './client.ts';
import {
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
    modes: { type: 'string', default: 'keyword,semantic,hybrid,graph' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});

const top = 5;

interface SearchBody {
  data: { result_type: 'node' | 'chunk'; chunk: { filename: string; content: string } | null }[];
  fallback: string | null;
}

interface ModeFigures {
  mode: string;
  top1: number;
  top5: number;
  p50Ms: number;
  p95Ms: number;
  fallbacks: number;
  /** Per question: the 1-based position of the first answer passage among the results, or null. */
  ranks: (number | null)[];
}

/** The position (1-based) of the first result that is a passage of the question's document holding an answer. */
function answerRank(body: SearchBody, question: TechnicalQuestion): number | null {
  const answers = question.answers.map(normalised);
  const index = body.data.findIndex(
    (item) =>
      item.chunk?.filename === question.document &&
      answers.some((answer) => normalised(item.chunk!.content).includes(answer)),
  );
  return index < 0 ? null : index + 1;
}

async function scoreMode(client: EvalClient, questions: TechnicalQuestion[], mode: string): Promise<ModeFigures> {
  const ranks: (number | null)[] = [];
  const times: number[] = [];
  let fallbacks = 0;
  for (const question of questions) {
    const query = new URLSearchParams({ q: question.question, search_type: mode, limit: '20' });
    const started = performance.now();
    const body = await client.json<SearchBody>('GET', `/search?${query}`);
    times.push(performance.now() - started);
    if (body.fallback) fallbacks++;
    ranks.push(answerRank(body, question));
  }
  const share = (within: number) => ranks.filter((rank) => rank !== null && rank <= within).length / questions.length;
  return {
    mode,
    top1: share(1),
    top5: share(top),
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    fallbacks,
    ranks,
  };
}

await withTechnicalCorpus('technical', options['data-dir'], async (corpus) => {
  const { client, documents, questions, times } = corpus;
  const modes = modeList(options.modes!);
  const figures: ModeFigures[] = [];
  for (const mode of modes) {
    // One untimed question warms the caches a server builds once (term counts, vector index, graph).
    await scoreMode(client, questions.slice(0, 1), mode);
    figures.push(await scoreMode(client, questions, mode));
  }
  console.log(corpusSummary(corpus));
  console.log(`mode       answer@1  answer@${top}  p50 ms  p95 ms  fallbacks`);
  for (const figure of figures)
    console.log(
      `${figure.mode.padEnd(10)} ${figure.top1.toFixed(3).padStart(8)}  ${figure.top5.toFixed(3).padStart(8)}  ${figure.p50Ms.toFixed(1).padStart(6)}  ${figure.p95Ms.toFixed(1).padStart(6)}  ${String(figure.fallbacks).padStart(9)}`,
    );
  if (options.verbose)
    questions.forEach((question, index) =>
      console.log(
        `${question.id.padEnd(16)} ${figures.map((figure) => `${figure.mode}=${figure.ranks[index] ?? '-'}`).join(' ')}  ${question.question}`,
      ),
    );
  if (options.json)
    fs.writeFileSync(options.json, JSON.stringify({ documents, questions: questions.length, times, figures }, null, 2));
});
