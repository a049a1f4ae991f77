/**
 * Precision of the duplicate proposals: the top 50 of GET /graph/duplicates on a built eval graph, judged
 * against the pairs labelled by hand in tests/fixtures/duplicates/labels.json.
 *
 *   node --import tsx tools/eval/duplicates.ts --data-dir DIR [--top 50] [--min-score 0.5]
 *
 * DIR is a data directory an eval run kept (`pnpm eval:retrieval --data-dir DIR`); it is copied first,
 * so the run leaves it as it was. A proposal without a label is printed and counted apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DuplicateProposal } from '@rhizome/contracts/api/duplicates';
import { startEvalServer } from './server.ts';

interface Label {
  a: string;
  b: string;
  duplicate: boolean;
}

const { values: options } = parseArgs({
  options: { 'data-dir': { type: 'string' }, top: { type: 'string' }, 'min-score': { type: 'string' } },
});
if (!options['data-dir']) throw new Error('--data-dir DIR: a data directory an eval run kept');
const top = Number(options.top ?? 50);
const minScore = Number(options['min-score'] ?? 0.5);
const labelsPath = path.resolve(import.meta.dirname, '../../tests/fixtures/duplicates/labels.json');
const labels = JSON.parse(fs.readFileSync(labelsPath, 'utf8')) as Label[];
const pairKey = (a: string, b: string) => [a, b].sort().join(' || ');
const judged = new Map(labels.map((label) => [pairKey(label.a, label.b), label.duplicate]));

const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-eval-duplicates-'));
fs.cpSync(options['data-dir'], copy, { recursive: true });
const { server, client } = await startEvalServer(copy);
try {
  const started = performance.now();
  const page = await client.json<{ data: DuplicateProposal[]; pagination: { total: number } }>(
    'GET',
    `/graph/duplicates?min_score=${minScore}&page_size=${top}`,
  );
  const elapsedMs = Math.round(performance.now() - started);
  let right = 0;
  let wrong = 0;
  // Pairs whose names differ are the hard part: two nodes of one name are found by their name key alone.
  const named = { right: 0, wrong: 0 };
  const unlabelled: string[] = [];
  for (const proposal of page.data) {
    const [a, b] = proposal.nodes.map((node) => node.label);
    const verdict = judged.get(pairKey(a, b));
    if (verdict === undefined) unlabelled.push(`${proposal.score}\t${a} || ${b}`);
    else if (verdict) right += 1;
    else wrong += 1;
    if (verdict !== undefined && a.toLowerCase() !== b.toLowerCase()) named[verdict ? 'right' : 'wrong'] += 1;
  }
  console.log(`${page.pagination.total} proposals at ${minScore} or more, listed in ${elapsedMs} ms`);
  console.log(`top ${page.data.length}: ${right} duplicates, ${wrong} not, ${unlabelled.length} unlabelled`);
  const precision = (yes: number, no: number) => (yes + no ? (yes / (yes + no)).toFixed(3) : 'n/a');
  console.log(`precision of the labelled: ${precision(right, wrong)}`);
  console.log(
    `of them with different names: ${named.right + named.wrong}, precision ${precision(named.right, named.wrong)}`,
  );
  for (const line of unlabelled) console.log(`unlabelled\t${line}`);
} finally {
  await server.stop();
  fs.rmSync(copy, { recursive: true, force: true });
}
