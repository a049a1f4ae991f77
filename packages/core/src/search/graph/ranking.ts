/**
 * What graph search returns: passages by the mass the walk gave them, fused with the retrieval the
 * walk started from, and the top entities after a lead of passages.
 */
import type { RankedItem } from '../types.ts';
import { relative } from './seeds.ts';

/**
 * The leading results that are passages whenever the walk ranks that many: an entity is a pointer
 * into the graph, and a handful of well-connected ones, each scored against the best entity, would
 * otherwise take the first places from the passages that answer the question.
 */
export const passageLead = 5;

/**
 * Passages by the walk's score relative to its best passage plus `weight` × their retrieval score
 * (`retrieved`: the keyword and vector hits the walk was seeded with, relative to the best of them),
 * best first, relative to the best again, at most `limit`; a retrieved passage the walk left out of
 * its ranking keeps its retrieval score alone. Ties keep the walk's order.
 *
 * The walk spreads the seeds' mass along the graph: on a graph that links the right passages that
 * lifts a second hop no word of the query names, but a generic graph (few typed relations, names
 * shared by unrelated documents) or poor seeds spread it to passages the query has nothing to do
 * with, burying what the query's words pick out. The retrieval term keeps those passages where the
 * retrieval put them unless the walk gives others clearly more mass; with no useful graph at all the
 * ranking is the retrieval's own.
 */
export function fusedPassages(
  walk: readonly RankedItem[],
  retrieved: ReadonlyMap<string, number>,
  weight: number,
  limit: number,
): RankedItem[] {
  let best = 0;
  for (const score of retrieved.values()) best = Math.max(best, score);
  const retrieval = (id: string) => (best > 0 ? (weight * (retrieved.get(id) ?? 0)) / best : 0);
  const scores = new Map<string, number>();
  for (const item of relative(walk)) scores.set(item.id, item.score + retrieval(item.id));
  for (const id of retrieved.keys()) if (!scores.has(id)) scores.set(id, retrieval(id));
  const ranked = [...scores]
    .filter(([, score]) => score > 0)
    .map(([id, score]): RankedItem => ({ kind: 'chunk', id, score }))
    .sort((a, b) => b.score - a.score);
  return relative(ranked.slice(0, limit));
}

/**
 * The first passages of the keyword ranking, which keep their places ahead of the walk: the passages
 * that hold the query's own rarest words are the surest of all, and a walk from poor seeds or over a
 * generic graph (a name every document shares, few typed relations) would otherwise bury them. The
 * walk still orders everything after them, which is where a second hop is found.
 */
export const keywordLead = 4;

/**
 * `passages` with the first `count` of `keyword` (best first) moved to the front in keyword order,
 * each scored as the best passage so the order holds wherever the list is sorted again (the sorts are
 * stable), at most `limit`.
 */
export function withKeywordLead(
  passages: readonly RankedItem[],
  keyword: readonly RankedItem[],
  limit: number,
  count = keywordLead,
): RankedItem[] {
  const best = passages[0]?.score ?? 1;
  const lead = keyword.slice(0, count).map((item): RankedItem => ({ kind: 'chunk', id: item.id, score: best }));
  const led = new Set(lead.map((item) => item.id));
  return [...lead, ...passages.filter((item) => !led.has(item.id))].slice(0, limit);
}

/**
 * Passages and entities in one list of at most `limit`, best first: each entity's score (relative to
 * the best entity) is scaled by the score of the last passage of the lead, so the first `passageLead`
 * passages come first and the rest of both follow by score, a passage first on a tie.
 */
export function withEntities(
  passages: readonly RankedItem[],
  entities: readonly RankedItem[],
  limit: number,
): RankedItem[] {
  const lead = passages[Math.min(passageLead, passages.length) - 1]?.score ?? 1;
  const placed = entities.map((entity) => ({ ...entity, score: entity.score * lead }));
  return [...passages, ...placed].sort((a, b) => b.score - a.score).slice(0, limit);
}
