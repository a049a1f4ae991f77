import { NotFound } from '@rhizome/contracts/errors';
import { groundingNeighbors, groundingNodeDetail, type NeighborDirection } from '../graph/index.ts';
import type { ToolDefinition } from '../providers/index.ts';
import { provenanceChunks } from '../search/index.ts';
import { hydrate } from '../search/index.ts';
import { runSearch, type SearchType } from '../search/index.ts';
import type { ModeResult, RankedItem, SearchContext, SearchScope, Triple } from '../search/index.ts';
import { formatChunk, type LedgerNode, type RetrievalLedger } from './ledger.ts';
import { edgesTouching, entityLabels } from './read-model.ts';

/**
 * The chat's tools: read-only retrieval over the knowledge base within the chat's
 * scope. Each returns text for the model; chunks come back wrapped as untrusted documents under the
 * aliases the answer cites them by, entities with the ids the answer marks them with.
 */

export interface ToolContext {
  search: SearchContext;
  scope: SearchScope;
  ledger: RetrievalLedger;
  /** The mode every search tool runs instead of its own; null: each tool's own mode. */
  searchMode: SearchType | null;
}

export interface ChatTool {
  definition: ToolDefinition;
  /** Changes the graph (gated under `chat.tool_approval = ask-on-write`). None of the retrieval tools does. */
  mutating: boolean;
  run(context: ToolContext, args: Record<string, unknown>): Promise<string>;
}

const maxLimit = 20;

/** A tool's argument problem, told to the model as the tool's result so it can correct the call. */
class ToolArgumentError extends Error {}

function text(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || !value.trim())
    throw new ToolArgumentError(`'${name}' is required and must be a non-empty string`);
  return value.trim();
}

function limit(args: Record<string, unknown>, fallback: number): number {
  const value = Number(args.limit ?? fallback);
  return Number.isFinite(value) ? Math.min(Math.max(1, Math.trunc(value)), maxLimit) : fallback;
}

const nodeLine = (node: LedgerNode) =>
  `- [[node:${node.id}|${node.label}]]${node.template_id ? ` (${node.template_id})` : ''}`;
const tripleLine = (triple: Triple) =>
  `- ${triple.source.label} (${triple.source.id}) —${triple.relationship}→ ${triple.target.label} (${triple.target.id})`;
const tripleFact = (triple: Triple) => `${triple.source.label} —${triple.relationship}→ ${triple.target.label}`;

async function rankedNodes(context: ToolContext, items: readonly RankedItem[]): Promise<LedgerNode[]> {
  const hits = await hydrate(
    context.search.db,
    items.filter((item) => item.kind === 'node'),
  );
  const nodes = hits.flatMap((hit) =>
    hit.node ? [{ id: hit.node.id, label: hit.node.label, template_id: hit.node.template_id }] : [],
  );
  context.ledger.addNodes(nodes);
  return nodes;
}

async function chunkDocuments(context: ToolContext, chunkIds: readonly string[]): Promise<string> {
  const chunks = await context.ledger.addChunks(context.search.db, chunkIds);
  return chunks.length
    ? chunks.map((chunk) => formatChunk(chunk, context.ledger.shownSentences(chunk))).join('\n\n')
    : 'No passages found.';
}

/**
 * A tool that runs one search mode for `query` (at most `limit` items, default `defaultLimit`) and
 * formats what it found; the turn's search mode, when it names one, replaces the tool's.
 */
function searchTool(
  name: string,
  description: string,
  type: SearchType,
  defaultLimit: number,
  format: (context: ToolContext, result: ModeResult) => Promise<string>,
): ChatTool {
  return {
    mutating: false,
    definition: {
      name,
      description,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: maxLimit } },
        required: ['query'],
      },
    },
    async run(context, args) {
      return format(
        context,
        await runSearch(
          context.search,
          context.searchMode ?? type,
          text(args, 'query'),
          context.scope,
          limit(args, defaultLimit),
        ),
      );
    },
  };
}

const chunkIdsOf = (result: ModeResult) => result.items.filter((item) => item.kind === 'chunk').map((item) => item.id);

const graphragSearch = searchTool(
  'graphrag_search',
  'Search the knowledge graph and documents for a question: the entities most related to it, their relationships, and the passages that support them. Call this first.',
  'graph',
  8,
  async (context, result) => {
    const nodes = await rankedNodes(context, result.items);
    const triples = result.triples?.slice(0, 40) ?? [];
    context.ledger.addFacts(triples.map(tripleFact));
    const sections = [
      nodes.length ? `Entities:\n${nodes.map(nodeLine).join('\n')}` : 'Entities: none found.',
      triples.length ? `Relationships:\n${triples.map(tripleLine).join('\n')}` : '',
      `Passages:\n${await chunkDocuments(context, chunkIdsOf(result))}`,
    ];
    return sections.filter(Boolean).join('\n\n');
  },
);

const searchChunks = searchTool(
  'search_chunks',
  'Search document passages by words and meaning.',
  'hybrid',
  8,
  (context, result) => chunkDocuments(context, chunkIdsOf(result)),
);

const searchNodes = searchTool(
  'search_nodes',
  'Find entities of the knowledge graph by name or description.',
  'hybrid',
  10,
  async (context, result) => {
    const nodes = await rankedNodes(context, result.items);
    return nodes.length ? nodes.map(nodeLine).join('\n') : 'No entities found.';
  },
);

async function nodeOrMissing(context: ToolContext, id: string) {
  try {
    return await groundingNodeDetail(context.search.db, id, 25);
  } catch (error) {
    if (error instanceof NotFound) throw new ToolArgumentError(`no node has the id '${id}'`);
    throw error;
  }
}

const getNode: ChatTool = {
  mutating: false,
  definition: {
    name: 'get_node',
    description: 'An entity by id: its type, properties and how many relationships it has.',
    parameters: { type: 'object', properties: { node_id: { type: 'string' } }, required: ['node_id'] },
  },
  async run(context, args) {
    const { node, total_outgoing, total_incoming } = await nodeOrMissing(context, text(args, 'node_id'));
    context.ledger.addNodes([node]);
    return [
      nodeLine(node),
      `Properties: ${JSON.stringify(node.properties)}`,
      `Relationships: ${total_outgoing} outgoing, ${total_incoming} incoming`,
    ].join('\n');
  },
};

async function neighborLines(
  context: ToolContext,
  id: string,
  direction: NeighborDirection,
  size: number,
): Promise<string> {
  const { neighbors, total } = await groundingNeighbors(context.search.db, id, direction, size);
  context.ledger.addNodes(neighbors.map((neighbor) => neighbor.node));
  const center = context.ledger.nodes.get(id)?.label ?? id;
  context.ledger.addFacts(
    neighbors.map((neighbor) =>
      neighbor.direction === 'outgoing'
        ? `${center} —${neighbor.relationship_type}→ ${neighbor.node.label}`
        : `${neighbor.node.label} —${neighbor.relationship_type}→ ${center}`,
    ),
  );
  const lines = neighbors.map((neighbor) =>
    neighbor.direction === 'outgoing'
      ? `- —${neighbor.relationship_type}→ [[node:${neighbor.node.id}|${neighbor.node.label}]] (edge ${neighbor.edge_id})`
      : `- ←${neighbor.relationship_type}— [[node:${neighbor.node.id}|${neighbor.node.label}]] (edge ${neighbor.edge_id})`,
  );
  return lines.length
    ? `${lines.join('\n')}${total > lines.length ? `\n(${total - lines.length} more)` : ''}`
    : 'No relationships.';
}

const getNodeContext: ChatTool = {
  mutating: false,
  definition: {
    name: 'get_node_context',
    description: 'An entity with its relationships and the passages that mention it.',
    parameters: {
      type: 'object',
      properties: { node_id: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: maxLimit } },
      required: ['node_id'],
    },
  },
  async run(context, args) {
    const { node } = await nodeOrMissing(context, text(args, 'node_id'));
    context.ledger.addNodes([node]);
    const provenance = await provenanceChunks(
      context.search.db,
      [{ id: node.id, score: 1 }],
      context.scope,
      limit(args, 5),
    );
    return [
      nodeLine(node),
      `Relationships:\n${await neighborLines(context, node.id, 'both', 20)}`,
      `Passages:\n${await chunkDocuments(
        context,
        provenance.map((item) => item.id),
      )}`,
    ].join('\n\n');
  },
};

const getNodeEdges: ChatTool = {
  mutating: false,
  definition: {
    name: 'get_node_edges',
    description: "An entity's relationships, outgoing, incoming or both.",
    parameters: {
      type: 'object',
      properties: {
        node_id: { type: 'string' },
        direction: { type: 'string', enum: ['outgoing', 'incoming', 'both'] },
        limit: { type: 'integer', minimum: 1, maximum: maxLimit },
      },
      required: ['node_id'],
    },
  },
  async run(context, args) {
    const id = text(args, 'node_id');
    const { node } = await nodeOrMissing(context, id);
    context.ledger.addNodes([node]);
    const direction = (['outgoing', 'incoming', 'both'] as const).find((value) => value === args.direction) ?? 'both';
    return neighborLines(context, id, direction, limit(args, 20));
  },
};

const maxPathHops = 6;

/** Breadth-first over edges in either direction, one query per hop, frontier capped so a hub cannot blow it up. */
async function shortestPath(
  context: ToolContext,
  from: string,
  to: string,
  hops: number,
): Promise<{ node: string; edge: string; label: string }[] | null> {
  const previous = new Map<string, { node: string; edge: string; label: string } | null>([[from, null]]);
  let frontier = [from];
  for (let hop = 0; hop < hops && frontier.length && !previous.has(to); hop++) {
    const rows = await edgesTouching(context.search.db, frontier, 20_000);
    const inFrontier = new Set(frontier);
    const next: string[] = [];
    for (const row of rows) {
      for (const [here, there] of [
        [row.a, row.b],
        [row.b, row.a],
      ]) {
        if (!inFrontier.has(here) || previous.has(there)) continue;
        previous.set(there, { node: here, edge: row.id, label: row.label });
        next.push(there);
      }
    }
    frontier = next.slice(0, 5000);
  }
  if (!previous.has(to)) return null;
  const steps: { node: string; edge: string; label: string }[] = [];
  for (let at = to; previous.get(at); at = previous.get(at)!.node) steps.unshift({ ...previous.get(at)!, node: at });
  return steps;
}

const traversePath: ChatTool = {
  mutating: false,
  definition: {
    name: 'traverse_path',
    description: 'The shortest chain of relationships connecting two entities.',
    parameters: {
      type: 'object',
      properties: {
        from_node_id: { type: 'string' },
        to_node_id: { type: 'string' },
        max_hops: { type: 'integer', minimum: 1, maximum: maxPathHops },
      },
      required: ['from_node_id', 'to_node_id'],
    },
  },
  async run(context, args) {
    const from = text(args, 'from_node_id');
    const to = text(args, 'to_node_id');
    await nodeOrMissing(context, from);
    await nodeOrMissing(context, to);
    const hops = Math.min(Math.max(1, Number(args.max_hops) || 4), maxPathHops);
    const steps = await shortestPath(context, from, to, hops);
    if (!steps) return `No path of at most ${hops} relationships connects them.`;
    const ids = [from, ...steps.map((step) => step.node)];
    const labels = new Map((await entityLabels(context.search.db, 'node', ids)).map((node) => [node.id, node]));
    context.ledger.addNodes([...labels.values()]);
    const name = (id: string) => `[[node:${id}|${labels.get(id)?.label ?? id}]]`;
    return [name(from), ...steps.map((step) => `—${step.label}— ${name(step.node)}`)].join(' ');
  },
};

export const chatTools: readonly ChatTool[] = [
  graphragSearch,
  searchChunks,
  searchNodes,
  getNode,
  getNodeContext,
  getNodeEdges,
  traversePath,
];

/** Runs a tool; a bad argument or a missing node is the result the model reads, not a failed turn. */
export async function runTool(tool: ChatTool, context: ToolContext, args: Record<string, unknown>): Promise<string> {
  try {
    return await tool.run(context, args);
  } catch (error) {
    if (error instanceof ToolArgumentError) return `Error: ${error.message}`;
    throw error;
  }
}
