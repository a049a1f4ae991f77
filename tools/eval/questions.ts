/**
 * Asks every question through GET /search in each mode and scores the passages it found.
 *
 * Plain BM25 (`bm25.ts`) runs beside the modes as the baseline. A result counts as the passage of its source: chunks give their source's filename, which the kit
 * maps back to the passage title; node results are not passages and are skipped. Metrics, as in the
 * published benchmark this kit comes from: all-evidence@k, the share of questions whose supporting
 * passages are all among the first `k` distinct passages; recall@k, the mean share of a question's
 * supporting passages among them.
 */
import { bm25Index } from './bm25.ts';
import type { EvalClient } from './client.ts';
import { passageFilenames, type Kit, type Naming } from './kit.ts';

export interface ModeScore {
  mode: string;
  allEvidence: number;
  recall: number;
  p50Ms: number;
  p95Ms: number;
  /** Questions answered with a fallback (the mode could not run as itself). */
  fallbacks: number;
}

interface SearchBody {
  data: { result_type: 'node' | 'chunk'; chunk: { filename: string } | null }[];
  fallback: string | null;
}

export const searchLimit = 50;

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

/** The scores of one ranking of passage titles per question (distinct titles, best first). */
export function scoreRankings(
  kit: Kit,
  mode: string,
  rankings: readonly string[][],
  times: number[],
  fallbacks: number,
  k: number,
): ModeScore {
  let allFound = 0;
  let recall = 0;
  kit.questions.forEach((question, index) => {
    const found = rankings[index].slice(0, k);
    const hits = question.supporting_titles.filter((title) => found.includes(title)).length;
    if (hits === question.supporting_titles.length) allFound++;
    recall += hits / question.supporting_titles.length;
  });
  const n = kit.questions.length || 1;
  return {
    mode,
    allEvidence: allFound / n,
    recall: recall / n,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    fallbacks,
  };
}

/** Every question through GET /search in `mode`. */
export async function scoreMode(
  client: EvalClient,
  kit: Kit,
  mode: string,
  k: number,
  names: Naming = 'titles',
): Promise<ModeScore> {
  const filenames = passageFilenames(kit.passages, names);
  const titles = new Map(kit.passages.map((passage, index) => [filenames[index], passage.title] as const));
  const rankings: string[][] = [];
  const times: number[] = [];
  let fallbacks = 0;
  for (const question of kit.questions) {
    const query = new URLSearchParams({ q: question.question, search_type: mode, limit: String(searchLimit) });
    const started = performance.now();
    const body = await client.json<SearchBody>('GET', `/search?${query}`);
    times.push(performance.now() - started);
    if (body.fallback) fallbacks++;
    const found: string[] = [];
    for (const item of body.data) {
      const title = item.chunk ? titles.get(item.chunk.filename) : undefined;
      if (title !== undefined && !found.includes(title)) found.push(title);
    }
    rankings.push(found);
  }
  return scoreRankings(kit, mode, rankings, times, fallbacks, k);
}

/** Every question through the in-memory plain BM25 baseline (`bm25.ts`). */
export function scoreBm25(kit: Kit, k: number): ModeScore {
  const index = bm25Index(kit.passages);
  const times: number[] = [];
  const rankings = kit.questions.map((question) => {
    const started = performance.now();
    const found = index.search(question.question, k).map((position) => kit.passages[position].title);
    times.push(performance.now() - started);
    return found;
  });
  return scoreRankings(kit, 'plain bm25', rankings, times, 0, k);
}
