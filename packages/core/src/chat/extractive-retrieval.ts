import { hydrate, runSearch, type ModeResult, type SearchType } from '../search/index.ts';
import { formatChunk } from './ledger.ts';
import type { ChatTool, ToolContext } from './tools.ts';

/**
 * How the builtin provider, which calls no tools, retrieves for a question: every search mode at once,
 * their passages fused by reciprocal rank. No mode wins everywhere on ordinary documents — keyword
 * search finds the passage naming a command or a person that the graph walk ranks low, the walk finds
 * what a question reaches through an entity — and the answer is picked sentence by sentence afterwards,
 * so what one mode found is never lost to another's ranking. A turn that names a mode searches with it alone.
 */

/** The modes a builtin turn fuses when it names none. */
export const fusedModes: readonly SearchType[] = ['keyword', 'graph', 'hybrid', 'semantic'];
/** Passages each mode contributes. */
export const passagesPerMode = 8;
/** The usual reciprocal-rank constant: ranks far down a list still count, none dominates. */
const RANK_OFFSET = 60;

/** Chunk ids of several rankings, by the sum of 1 / (60 + rank) over the lists each appears in; first seen breaks ties. */
export function fuseRankings(rankings: readonly (readonly string[])[]): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings)
    ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RANK_OFFSET + rank + 1)));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

const chunkIds = (result: ModeResult) => result.items.filter((item) => item.kind === 'chunk').map((item) => item.id);

interface ModeRuns {
  results: ModeResult[];
  /** Modes of a fused search that failed, with why: the others still answer. */
  failures: string[];
}

async function searchModes(context: ToolContext, query: string): Promise<ModeRuns> {
  const run = (mode: SearchType) => runSearch(context.search, mode, query, context.scope, passagesPerMode);
  // A turn that names its mode gets that mode's error, as every tool call does.
  if (context.searchMode) return { results: [await run(context.searchMode)], failures: [] };
  const runs: ModeRuns = { results: [], failures: [] };
  // One after another: the modes share the database connection and the graph search's caches.
  for (const mode of fusedModes) {
    try {
      runs.results.push(await run(mode));
    } catch (error) {
      runs.failures.push(`${mode} search failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return runs;
}

/**
 * The builtin turn's one retrieval: the passages of every mode (or of the turn's mode) registered in
 * the ledger in fused order, and the entities the modes ranked, so the answer can mark them.
 */
export const fusedSearch: ChatTool = {
  mutating: false,
  definition: {
    name: 'fused_search',
    description:
      'Search the documents and the knowledge graph with every retrieval mode (keyword, graph, hybrid, semantic) and fuse their passages by reciprocal rank.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
  },
  async run(context, args) {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) return 'No passages found.';
    const { results, failures } = await searchModes(context, query);
    const nodeItems = results.flatMap((result) => result.items.filter((item) => item.kind === 'node'));
    const nodes = (await hydrate(context.search.db, nodeItems)).flatMap((hit) =>
      hit.node ? [{ id: hit.node.id, label: hit.node.label, template_id: hit.node.template_id }] : [],
    );
    context.ledger.addNodes(nodes);
    const chunks = await context.ledger.addChunks(context.search.db, fuseRankings(results.map(chunkIds)));
    const passages = chunks.map((chunk) => formatChunk(chunk, context.ledger.shownSentences(chunk))).join('\n\n');
    return [
      ...failures,
      nodes.length ? `Entities: ${[...new Set(nodes.map((node) => node.label))].join(', ')}` : 'Entities: none found.',
      `Passages:\n${passages || 'No passages found.'}`,
    ].join('\n\n');
  },
};
