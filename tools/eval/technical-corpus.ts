// The technical corpus the technical-document evaluations share (tests/fixtures/technical: man pages,
// READMEs, a copyright history, a CSV, an HTML page …) with its questions, ingested once into a fresh
// embedded server and kept, with --data-dir, for later runs that only ask.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EvalClient } from './client.ts';
import { startEvalServer } from './server.ts';

export interface TechnicalQuestion {
  id: string;
  question: string;
  /** The file name of the document holding the answer. */
  document: string;
  /** Substrings of the answer sentence, any of which marks a passage or an answer as holding it. */
  answers: string[];
}

export interface TechnicalCorpus {
  client: EvalClient;
  documents: string[];
  questions: TechnicalQuestion[];
  /** How long the upload and extraction took, and how many documents failed. */
  times: { seconds: number; failed: number };
}

const fixtureDir = path.resolve(import.meta.dirname, '../../tests/fixtures/technical');
/** Files of the fixture folder that describe it rather than belong to the corpus. */
const notDocuments = new Set(['README.md', 'questions.json']);

export const log = (line: string) => process.stderr.write(`${line}\n`);

/** Text compared with whitespace runs as one space and case ignored: an answer may wrap in a man page. */
export const normalised = (text: string) => text.replace(/\s+/gu, ' ').trim().toLowerCase();

/** The modes a comma-separated --modes option names. */
export const modeList = (option: string): string[] =>
  option
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** The first line of every report: what was asked of how much, and what the ingest cost. */
export function corpusSummary({ documents, questions, times }: TechnicalCorpus): string {
  return `${documents.length} documents, ${questions.length} questions; ingest + extraction ${times.seconds.toFixed(1)} s, ${times.failed} failed`;
}

export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

interface SourceStats {
  total_files: number;
  by_status: Record<string, number>;
}

/** Uploads the documents in one batch and waits until every source is committed or failed; seconds taken. */
async function ingest(client: EvalClient, files: string[]): Promise<{ seconds: number; failed: number }> {
  const started = performance.now();
  const form = new FormData();
  form.append('auto_confirm', 'true');
  form.append('extract_entities', 'true');
  for (const file of files) form.append('files', new Blob([fs.readFileSync(path.join(fixtureDir, file))]), file);
  const result = await client.form<{ failed: number; errors: unknown[] }>('/sources/batch', form);
  if (result.failed) throw new Error(`upload refused: ${JSON.stringify(result.errors).slice(0, 500)}`);
  for (;;) {
    // A poll that meets a connection reset (a kept-alive socket the server just closed) is retried.
    const stats = await client
      .json<SourceStats>('GET', '/sources/stats')
      .catch(() => client.json<SourceStats>('GET', '/sources/stats'));
    const settled = (stats.by_status.committed ?? 0) + (stats.by_status.error ?? 0);
    if (stats.total_files >= files.length && settled === stats.total_files)
      return { seconds: (performance.now() - started) / 1000, failed: stats.by_status.error ?? 0 };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function loadCorpus(): { documents: string[]; questions: TechnicalQuestion[] } {
  const questions = JSON.parse(fs.readFileSync(path.join(fixtureDir, 'questions.json'), 'utf8')) as TechnicalQuestion[];
  const documents = fs
    .readdirSync(fixtureDir)
    .filter((file) => !notDocuments.has(file))
    .sort();
  for (const question of questions)
    if (!documents.includes(question.document))
      throw new Error(`question ${question.id} names ${question.document}, not a document of ${fixtureDir}`);
  return { documents, questions };
}

/**
 * Runs `work` against a server holding the corpus: ingested into `dataDir` (kept) when given and not
 * ingested there yet, else into a temporary directory removed afterwards. `name` tells the evaluations'
 * manifests apart.
 */
export async function withTechnicalCorpus(
  name: string,
  dataDir: string | undefined,
  work: (corpus: TechnicalCorpus) => Promise<void>,
): Promise<void> {
  const { documents, questions } = loadCorpus();
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `rhizome-${name}-`));
  fs.mkdirSync(dir, { recursive: true });
  const manifestPath = path.join(dir, `${name}-manifest.json`);
  const { server, client } = await startEvalServer(dir);
  try {
    let times: TechnicalCorpus['times'];
    if (fs.existsSync(manifestPath)) {
      times = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as typeof times;
      log(`reusing the documents ingested in ${dir}`);
    } else {
      log(`ingesting ${documents.length} documents into ${dir}`);
      times = await ingest(client, documents);
      fs.writeFileSync(manifestPath, JSON.stringify(times));
    }
    await work({ client, documents, questions, times });
  } finally {
    await server.stop();
    if (dataDir === undefined) fs.rmSync(dir, { recursive: true, force: true });
  }
}
