import { countOf, humanise } from '../../lib/format.ts';
import { sentenceCase } from '../../lib/sentence-case.ts';

type Arguments = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const quoted = (value: unknown) => `“${text(value)}”`;
const atMost = (value: unknown, noun: string, plural?: string) =>
  typeof value === 'number' ? ` (at most ${countOf(value, noun, plural)})` : '';

interface ChatToolWords {
  /** What the tool is, as a short title (the badges of a turn). */
  title: string;
  /** What a call does with its arguments, finishing "The assistant wants to …". */
  action: (args: Arguments) => string;
}

/** The chat's retrieval tools in words; the server names them for the model, not for people. */
const chatTools: Record<string, ChatToolWords> = {
  graphrag_search: {
    title: 'Knowledge graph search',
    action: (args) =>
      `search the knowledge graph and the documents for ${quoted(args.query)}${atMost(args.limit, 'result')}`,
  },
  fused_search: {
    title: 'Search in every mode',
    action: (args) =>
      `search the documents and the knowledge graph in every way (words, meaning, graph) for ${quoted(args.query)}`,
  },
  search_chunks: {
    title: 'Passage search',
    action: (args) => `search the document passages for ${quoted(args.query)}${atMost(args.limit, 'passage')}`,
  },
  search_nodes: {
    title: 'Entity search',
    action: (args) => `look for entities matching ${quoted(args.query)}${atMost(args.limit, 'entity', 'entities')}`,
  },
  get_node: {
    title: 'Entity details',
    action: (args) => `read the entity ${quoted(args.node_id)} with its properties`,
  },
  get_node_context: {
    title: 'Entity in context',
    action: (args) =>
      `read the entity ${quoted(args.node_id)} with its relationships and the passages that mention it${atMost(args.limit, 'relationship')}`,
  },
  get_node_edges: {
    title: 'Entity relationships',
    action: (args) =>
      `list the ${typeof args.direction === 'string' && args.direction !== 'both' ? `${args.direction} ` : ''}relationships of the entity ${quoted(args.node_id)}${atMost(args.limit, 'relationship')}`,
  },
  traverse_path: {
    title: 'Path between entities',
    action: (args) =>
      `find the shortest chain of relationships from the entity ${quoted(args.from_node_id)} to ${quoted(args.to_node_id)}${atMost(args.max_hops, 'step')}`,
  },
};

export function chatToolTitle(name: string): string {
  return chatTools[name]?.title ?? sentenceCase(name);
}

/** One sentence saying what a tool call will do, e.g. "The assistant wants to search … for “…”." */
export function describeToolCall(name: string, args: Arguments): string {
  const words = chatTools[name];
  return words
    ? `The assistant wants to ${words.action(args)}.`
    : `The assistant wants to run the tool “${humanise(name)}” with the values below.`;
}
