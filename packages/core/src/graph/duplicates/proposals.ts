import type { DuplicateProposal } from '@rhizome/contracts/api/duplicates';
import { NotFound } from '@rhizome/contracts/errors';
import { selectRows, type Db } from '../../storage/index.ts';
import type { Window } from '../items.ts';
import { nodeStats } from '../nodes/repo.ts';
import { placeholders } from '../nodes/sql.ts';
import { aliasesColumn, aliasesOf, findDuplicatePairs, type FoundPair } from './find.ts';
import './tables.ts';

interface Cached {
  stamp: string;
  pairs: Promise<FoundPair[]>;
}

/** The pairs found per database connection, kept while the graph is unchanged. */
const cache = new WeakMap<Db, Cached>();

/**
 * What changes proposals: nodes or edges added, removed or re-pointed (the structure counter), a label or
 * property edited (the newest update), a vector written (the newest vector row).
 */
async function graphStamp(db: Db): Promise<string> {
  const [row] = await selectRows<{
    structure: number | null;
    updated: string | null;
    nodes: number;
    vectors: number | null;
  }>(
    db,
    `SELECT (SELECT structure FROM graph_version WHERE id = 1) AS structure,
            (SELECT MAX(updated_at) FROM graph_nodes) AS updated,
            (SELECT COUNT(*) FROM graph_nodes) AS nodes,
            (SELECT MAX(rowid) FROM node_embeddings) AS vectors`,
  );
  return JSON.stringify(row);
}

/** Every pair found in the graph as it is now, from the cache when nothing changed since it was built. */
export async function currentPairs(db: Db): Promise<FoundPair[]> {
  const stamp = await graphStamp(db);
  const cached = cache.get(db);
  if (cached?.stamp === stamp) return cached.pairs;
  const pairs = findDuplicatePairs(db);
  cache.set(db, { stamp, pairs });
  pairs.catch(() => cache.delete(db));
  return pairs;
}

async function rejectedPairIds(db: Db): Promise<Set<string>> {
  return new Set((await db('duplicate_rejections').select('pair_id')).map((row) => row.pair_id));
}

/** The pairs a person has not rejected, scoring at least `minScore`, highest first. */
export async function openPairs(db: Db, minScore: number): Promise<FoundPair[]> {
  const [pairs, rejected] = await Promise.all([currentPairs(db), rejectedPairIds(db)]);
  return pairs.filter((pair) => pair.score >= minScore && !rejected.has(pair.id));
}

/** The proposal score from which two nodes count as probably one. */
export const probableScore = 0.5;

/** Which of `nodeIds` are in an open proposal scoring `probableScore` or more. */
export async function probablyDuplicated(db: Db, nodeIds: string[]): Promise<Set<string>> {
  const wanted = new Set(nodeIds);
  const [pairs, rejected] = await Promise.all([findDuplicatePairs(db, wanted), rejectedPairIds(db)]);
  const found = new Set<string>();
  for (const pair of pairs) {
    if (pair.score < probableScore || rejected.has(pair.id)) continue;
    for (const id of pair.nodeIds) if (wanted.has(id)) found.add(id);
  }
  return found;
}

/** One page of proposals, each with both nodes described and the one to keep suggested. */
export async function listDuplicateProposals(
  db: Db,
  minScore: number,
  window: Window,
): Promise<{ items: DuplicateProposal[]; total: number }> {
  const open = await openPairs(db, minScore);
  const page = open.slice(window.offset, window.offset + window.limit);
  const described = await describeNodes(db, [...new Set(page.flatMap((pair) => pair.nodeIds))]);
  const items = page.flatMap((pair) => {
    const nodes = pair.nodeIds.map((id) => described.get(id));
    const [a, b] = nodes;
    if (!a || !b) return [];
    return [{ id: pair.id, score: pair.score, keep_id: survivorOf(a, b).id, nodes: [a, b], evidence: pair.evidence }];
  });
  return { items, total: open.length };
}

type DescribedNode = DuplicateProposal['nodes'][number];

/** The node to keep: more citations and edges; on a tie, the first named (the older). */
function survivorOf(a: DescribedNode, b: DescribedNode): DescribedNode {
  return b.citation_count + b.edge_count > a.citation_count + a.edge_count ? b : a;
}

async function describeNodes(db: Db, ids: string[]): Promise<Map<string, DescribedNode>> {
  const described = new Map<string, DescribedNode>();
  if (!ids.length) return described;
  const marks = placeholders(ids.length);
  const rows = await selectRows<{
    id: string;
    label: string;
    template_id: string;
    template_name: string | null;
    aliases: string | null;
    source_count: number;
  }>(
    db,
    `SELECT n.id AS id, n.label AS label, n.template_id AS template_id, t.name AS template_name,
       ${aliasesColumn(db, 'n.properties')} AS aliases,
       (SELECT COUNT(*) FROM node_sources s WHERE s.node_id = n.id) AS source_count
     FROM graph_nodes n LEFT JOIN graph_templates t ON t.id = n.template_id WHERE n.id IN (${marks})`,
    ids,
  );
  const stats = await nodeStats(db, ids);
  for (const row of rows) {
    const counts = stats.get(row.id);
    described.set(row.id, {
      id: row.id,
      label: row.label,
      template_id: row.template_id,
      template_name: row.template_name ?? row.template_id,
      aliases: aliasesOf(db, row.aliases),
      edge_count: counts?.edge_count ?? 0,
      citation_count: counts?.citation_count ?? 0,
      source_count: row.source_count,
    });
  }
  return described;
}

/**
 * Records that a proposed pair is not one entity; it is never proposed again. Rejecting a pair already
 * rejected answers the same; a pair not proposed now is unknown (404).
 */
export async function rejectDuplicateProposal(db: Db, proposalId: string): Promise<{ id: string; rejected: true }> {
  const already = await db('duplicate_rejections').where({ pair_id: proposalId }).first('pair_id');
  if (!already) {
    const pair = (await currentPairs(db)).find((candidate) => candidate.id === proposalId);
    if (!pair) throw NotFound.resource('Duplicate proposal', proposalId);
    await db('duplicate_rejections')
      .insert({
        pair_id: pair.id,
        node_a_id: pair.nodeIds[0],
        node_b_id: pair.nodeIds[1],
        rejected_at: new Date().toISOString(),
      })
      .onConflict('pair_id')
      .ignore();
  }
  return { id: proposalId, rejected: true };
}
