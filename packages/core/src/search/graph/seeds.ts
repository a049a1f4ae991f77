/**
 * The personalization of graph search's walk: the entities the query names and the passages it
 * retrieves, each side's weights before they are scaled to its share.
 */
import type { RankedItem } from '../types.ts';
import { nameKeys, type LinkedEntity } from './link.ts';
import type { PassageGraph } from './passages.ts';

/** How much a passage weighs: 1 / the passages mentioning it, so a name every other passage mentions steers little. */
const specificity = (graph: PassageGraph, v: number) => 1 / Math.max(1, graph.entityPassages[v]);

/**
 * Entity seeds (dense index → weight): the entities the query names, each weighted by its specificity;
 * when it names none, the entities most similar to it by vector (`similar`, best first, already past
 * the similarity threshold), at most `limit`, weighted by similarity × specificity.
 */
export function entitySeeds(
  graph: PassageGraph,
  linked: readonly LinkedEntity[],
  similar: readonly RankedItem[],
  inScope: (v: number | undefined) => v is number,
  limit: number,
): Map<number, number> {
  const seeds = new Map<number, number>();
  for (const entity of linked) {
    const v = graph.entities.index.get(entity.id);
    if (inScope(v)) seeds.set(v, specificity(graph, v));
  }
  if (seeds.size) return seeds;
  for (const item of similar) {
    if (seeds.size >= limit) break;
    const v = graph.entities.index.get(item.id);
    if (inScope(v) && !seeds.has(v)) seeds.set(v, item.score * specificity(graph, v));
  }
  return seeds;
}

/** Items scored relative to the best of them: (0, 1], order kept. */
export function relative(items: readonly RankedItem[]): RankedItem[] {
  const best = items[0]?.score ?? 0;
  return items.map((item) => ({ ...item, score: best > 0 ? item.score / best : 0 }));
}

/**
 * Similarities spread over [0, 1]: the best 1, the lowest of the list 0, the rest in proportion. A
 * cosine similarity has no zero for "unrelated" the way BM25 has (every passage is somewhat similar to
 * every query, so a list's last hit is barely below its first): relative to the best alone, every
 * vector hit would add nearly a whole point to a passage's retrieval score and drown the keyword
 * ranking's differences. The list's lowest similarity stands in for the unrelated level. A list whose
 * hits are all alike scores them all 1.
 */
export function spread(items: readonly RankedItem[]): RankedItem[] {
  const best = items[0]?.score ?? 0;
  const floor = items.reduce((lowest, item) => Math.min(lowest, item.score), best);
  return items.map((item) => ({ ...item, score: best > floor ? (item.score - floor) / (best - floor) : 1 }));
}

/** Each retrieved list's passages by their score relative to its best hit, summed over the lists (chunk id → score). */
export function retrievalScores(lists: readonly RankedItem[][]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists)
    for (const item of relative(list)) scores.set(item.id, (scores.get(item.id) ?? 0) + item.score);
  return scores;
}

/**
 * Passage seeds (chunk id → weight): the retrieved passages by `retrievalScores`; then every source whose title a seed passage names (as a
 * capitalised run of words, `nameKeys`) gets that passage's weight on its first passage. That is the
 * link a wiki page's mention of another page is: "directed by Frank Lloyd" leads to "Frank Lloyd.txt"
 * even when extraction cited no Frank Lloyd there.
 */
export function passageSeeds(
  graph: PassageGraph,
  retrieved: ReadonlyMap<string, number>,
  contents: ReadonlyMap<string, string>,
): Map<string, number> {
  const seeds = new Map(retrieved);
  if (!seeds.size || !graph.titles.size) return seeds;
  const found = [...seeds];
  for (const [id, weight] of found) {
    const own = graph.chunkIndex.get(id);
    for (const key of nameKeys(contents.get(id) ?? '')) {
      const named = graph.titles.get(key);
      if (named === undefined || named === own) continue;
      const chunk = graph.chunkIds[named];
      seeds.set(chunk, (seeds.get(chunk) ?? 0) + weight);
    }
  }
  return seeds;
}
