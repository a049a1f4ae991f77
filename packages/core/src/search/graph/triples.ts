/**
 * The 1-hop context of the top entities (the triples graph search returns, docs/decisions/0024): their edges, read from the cached
 * adjacency (in scope only), turned into triples with the labels and templates of both ends.
 */
import type { Db } from '../../storage/index.ts';
import { nodeFacts } from '../read-model/graph-rows.ts';
import type { Triple } from '../types.ts';
import { isOutgoing, labelOf, type GraphAdjacency } from './adjacency.ts';

/** A triple by dense indices: `source —label→ target`. */
export interface IndexTriple {
  source: number;
  label: number;
  target: number;
}

export interface TripleLimits {
  /** Edges per direction per entity (`batching.graphrag_edge_query_limit`). */
  perDirection: number;
  /** All triples (`graphrag.max_triples`). */
  total: number;
}

/**
 * Slots of `v` in one direction whose other end is in scope, best-scored neighbour first (ties: lower
 * neighbour index, then lower slot), at most `limit`: a bounded insertion, so a hub of 100k edges
 * costs one pass rather than a sort.
 */
function bestSlots(
  adjacency: GraphAdjacency,
  v: number,
  outgoing: boolean,
  mask: Uint8Array | null,
  scores: Float64Array,
  limit: number,
): number[] {
  const { offsets, neighbors, codes } = adjacency;
  const best: number[] = [];
  if (limit <= 0) return best;
  // Slots are visited in increasing order, so "a before b" needs only score, then neighbour index.
  const before = (a: number, b: number) =>
    scores[neighbors[a]] > scores[neighbors[b]] ||
    (scores[neighbors[a]] === scores[neighbors[b]] && neighbors[a] < neighbors[b]);
  for (let j = offsets[v], end = offsets[v + 1]; j < end; j++) {
    if (isOutgoing(codes[j]) !== outgoing || (mask && !mask[neighbors[j]])) continue;
    if (best.length === limit && !before(j, best[limit - 1])) continue;
    if (best.length < limit) best.push(j);
    let at = best.length - 1;
    while (at > 0 && before(j, best[at - 1])) {
      best[at] = best[at - 1];
      at--;
    }
    best[at] = j;
  }
  return best;
}

/**
 * Each entity's outgoing then incoming edges to in-scope nodes, in entity order; per direction the
 * neighbours PPR ranked highest first (the edges most relevant to the query), at most
 * `limits.perDirection`. An edge seen from both ends, or stated twice, is one triple.
 */
export function collectTriples(
  adjacency: GraphAdjacency,
  entities: readonly number[],
  scores: Float64Array,
  mask: Uint8Array | null,
  limits: TripleLimits,
): IndexTriple[] {
  const triples: IndexTriple[] = [];
  const seen = new Set<string>();
  for (const v of entities) {
    for (const outgoing of [true, false]) {
      for (const j of bestSlots(adjacency, v, outgoing, mask, scores, limits.perDirection)) {
        if (triples.length >= limits.total) return triples;
        const other = adjacency.neighbors[j];
        const triple = outgoing
          ? { source: v, label: labelOf(adjacency.codes[j]), target: other }
          : { source: other, label: labelOf(adjacency.codes[j]), target: v };
        const key = `${triple.source},${triple.label},${triple.target}`;
        if (seen.has(key)) continue;
        seen.add(key);
        triples.push(triple);
      }
    }
  }
  return triples;
}

/**
 * Triples with the current labels and templates of their nodes (one query for all of them). A node
 * deleted since the adjacency was built drops its triples.
 */
export async function hydrateTriples(
  db: Db,
  adjacency: GraphAdjacency,
  triples: readonly IndexTriple[],
): Promise<Triple[]> {
  if (!triples.length) return [];
  const ids = [...new Set(triples.flatMap((triple) => [adjacency.ids[triple.source], adjacency.ids[triple.target]]))];
  const rows = await nodeFacts(db, ids);
  const facts = new Map(rows.map((row) => [row.id, { id: row.id, label: row.label, template_id: row.template_id }]));
  const out: Triple[] = [];
  for (const triple of triples) {
    const source = facts.get(adjacency.ids[triple.source]);
    const target = facts.get(adjacency.ids[triple.target]);
    if (source && target) out.push({ source, relationship: adjacency.labels[triple.label], target });
  }
  return out;
}
