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
//   --no-extract     ingest without entity extraction
//   --json FILE      also write the figures as JSON
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbedded } from '@rhizome/cli/embedded';
import { connect } from './client.ts';
import { ingestPassages, type IngestTimes } from './ingest.ts';
import { loadKit, subsetKit } from './kit.ts';
import { scoreBm25, scoreMode, type ModeScore } from './questions.ts';

const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    passages: { type: 'string' },
    questions: { type: 'string' },
    modes: { type: 'string', default: 'keyword,semantic,hybrid,graph' },
    settings: { type: 'string' },
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
const keep = options['data-dir'] !== undefined;
const dataDir = options['data-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-eval-'));
fs.mkdirSync(dataDir, { recursive: true });
const manifestPath = path.join(dataDir, 'eval-manifest.json');

interface Manifest {
  passages: number;
  settings: unknown;
  extract: boolean;
  times: IngestTimes;
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  RHIZOME_DATA_DIR: dataDir,
  RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
  RHIZOME_LOG_LEVEL: 'warning',
};
delete env.RHIZOME_QUEUE_URL;
const server = await startEmbedded({ host: '127.0.0.1', port: 0 }, env);
try {
  const client = await connect(`${server.url}/api/v1`);
  let manifest: Manifest;
  if (fs.existsSync(manifestPath)) {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
    if (manifest.passages !== kit.passages.length)
      throw new Error(`${dataDir} holds ${manifest.passages} passages, this run asks for ${kit.passages.length}`);
    log(`reusing the ${manifest.passages} passages ingested in ${dataDir}`);
  } else {
    const settings = options.settings ? (JSON.parse(options.settings) as unknown) : null;
    if (settings) await client.json('PATCH', '/settings', settings);
    log(`ingesting ${kit.passages.length} passages into ${dataDir}`);
    const times = await ingestPassages(client, kit.passages, { extract: !options['no-extract'], log });
    manifest = { passages: kit.passages.length, settings, extract: !options['no-extract'], times };
    fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  }

  const scores: ModeScore[] = [scoreBm25(kit, k)];
  for (const mode of options
    .modes!.split(',')
    .map((name) => name.trim())
    .filter(Boolean)) {
    // One untimed pass warms the caches (term counts, vector index, graph adjacency) a server builds once.
    await scoreMode(client, { ...kit, questions: kit.questions.slice(0, 1) }, mode, k);
    scores.push(await scoreMode(client, kit, mode, k));
  }

  const { times } = manifest;
  console.log(
    `${kit.passages.length} passages, ${kit.questions.length} questions, settings ${manifest.settings ? JSON.stringify(manifest.settings) : 'defaults (builtin)'}`,
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
        { passages: kit.passages.length, questions: kit.questions.length, k, ingest: times, scores },
        null,
        2,
      ),
    );
} finally {
  await server.stop();
  if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
}
