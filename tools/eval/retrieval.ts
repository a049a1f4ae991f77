// `pnpm eval:retrieval`: multi-hop retrieval on the 2WikiMultihopQA kit through the HTTP API of a
// fresh embedded server. Ingests every passage as its own source (batch upload, auto-confirmed,
// extracted), asks the 51 questions in each search mode and prints all-evidence@8, recall@8 and query
// times per mode beside a plain BM25 baseline, with the ingest and extraction times. A benchmark, not a test.
//
//   --data-dir DIR   keep the ingested data there; a later run on the same DIR skips the ingest and
//                    only asks the questions (against a fresh server on that data)
//   --passages N     only N passages (the questions' supporting ones first), with --questions N
//   --questions N    only the first N questions
//   --modes LIST     comma-separated search modes (default keyword,semantic,hybrid,graph)
//   --settings JSON  a PATCH /settings body applied before ingesting, e.g. another provider:
//                    '{"embedding":{"provider":"localllm","model":"nomic-embed-text"},"llm":{...}}'
//   --names MODE     `titles` (default): files named after their passage's title; `numbered`: named
//                    doc-0001.txt …, the title only in the text as its first line
//   --no-extract     ingest without entity extraction
//   --json FILE      also write the figures as JSON
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ingestPassages, type IngestTimes } from './ingest.ts';
import { loadKit, subsetKit, type Naming } from './kit.ts';
import { scoreBm25, scoreMode, type ModeScore } from './questions.ts';
import { startEvalServer } from './server.ts';

const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    passages: { type: 'string' },
    questions: { type: 'string' },
    modes: { type: 'string', default: 'keyword,semantic,hybrid,graph' },
    settings: { type: 'string' },
    names: { type: 'string', default: 'titles' },
    'no-extract': { type: 'boolean', default: false },
    json: { type: 'string' },
    k: { type: 'string', default: '8' },
  },
});

const log = (line: string) => process.stderr.write(`${line}\n`);
const fullKit = loadKit();
const kit =
  options.passages || options.questions
    ? subsetKit(
        fullKit,
        Number(options.passages ?? fullKit.passages.length),
        Number(options.questions ?? fullKit.questions.length),
      )
    : fullKit;
const k = Number(options.k);
if (options.names !== 'titles' && options.names !== 'numbered')
  throw new Error(`--names is titles or numbered, not ${options.names}`);
const names: Naming = options.names;
const keep = options['data-dir'] !== undefined;
const dataDir = options['data-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-eval-'));
fs.mkdirSync(dataDir, { recursive: true });
const manifestPath = path.join(dataDir, 'eval-manifest.json');

interface Manifest {
  passages: number;
  names: Naming;
  settings: unknown;
  extract: boolean;
  times: IngestTimes;
}

const { server, client } = await startEvalServer(dataDir);
try {
  let manifest: Manifest;
  if (fs.existsSync(manifestPath)) {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
    if (manifest.passages !== kit.passages.length)
      throw new Error(`${dataDir} holds ${manifest.passages} passages, this run asks for ${kit.passages.length}`);
    if ((manifest.names ?? 'titles') !== names)
      throw new Error(`${dataDir} holds files named by ${manifest.names ?? 'titles'}, this run asks for ${names}`);
    log(`reusing the ${manifest.passages} passages ingested in ${dataDir}`);
  } else {
    const settings = options.settings ? (JSON.parse(options.settings) as unknown) : null;
    if (settings) await client.json('PATCH', '/settings', settings);
    log(`ingesting ${kit.passages.length} passages into ${dataDir}`);
    const times = await ingestPassages(client, kit.passages, { extract: !options['no-extract'], names, log });
    manifest = { passages: kit.passages.length, names, settings, extract: !options['no-extract'], times };
    fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  }

  const scores: ModeScore[] = [scoreBm25(kit, k)];
  for (const mode of options
    .modes!.split(',')
    .map((name) => name.trim())
    .filter(Boolean)) {
    // One untimed pass warms the caches (term counts, vector index, graph adjacency) a server builds once.
    await scoreMode(client, { ...kit, questions: kit.questions.slice(0, 1) }, mode, k, names);
    scores.push(await scoreMode(client, kit, mode, k, names));
  }

  const { times } = manifest;
  console.log(
    `${kit.passages.length} passages named by ${names}, ${kit.questions.length} questions, settings ${manifest.settings ? JSON.stringify(manifest.settings) : 'defaults (builtin)'}`,
  );
  console.log(
    `ingest ${times.ingestSeconds.toFixed(1)} s, ingest + extraction ${times.totalSeconds.toFixed(1)} s, ${times.failed} failed, ${times.entities} entities, ${times.relationships} relationships`,
  );
  console.log(`mode       all-evidence@${k}  recall@${k}  p50 ms  p95 ms  fallbacks`);
  for (const score of scores) {
    console.log(
      `${score.mode.padEnd(10)} ${score.allEvidence.toFixed(3).padStart(14)}  ${score.recall.toFixed(3).padStart(8)}  ${score.p50Ms.toFixed(1).padStart(6)}  ${score.p95Ms.toFixed(1).padStart(6)}  ${String(score.fallbacks).padStart(9)}`,
    );
  }
  if (options.json)
    fs.writeFileSync(
      options.json,
      JSON.stringify(
        { passages: kit.passages.length, names, questions: kit.questions.length, k, ingest: times, scores },
        null,
        2,
      ),
    );
} finally {
  await server.stop();
  if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
}
