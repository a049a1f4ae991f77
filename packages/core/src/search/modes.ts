import { ApiError } from '@rhizome/contracts/errors';
import type { SearchType } from '@rhizome/contracts/api/search';
import { createGraphSearch } from './graph/index.ts';
import { keywordSearch } from './keyword.ts';
import { reciprocalRankFusion } from './rrf.ts';
import { semanticChunks, semanticNodes, semanticSearch } from './semantic.ts';
import type { ModeResult, SearchContext, SearchScope } from './types.ts';

export type { SearchType } from '@rhizome/contracts/api/search';

/** A search mode: ranks nodes and chunks (enabled sources only, within the scope) for `query`, at most `limit` items. */
export type SearchMode = (context: SearchContext, query: string, scope: SearchScope, limit: number) => Promise<ModeResult>;

const everything: SearchScope = { sourceIds: null, templateId: null };

/** Vector similarity; when there is nothing to search by meaning (index to rebuild, vectors off), keyword results and why. */
const semanticOrKeyword: SearchMode = async (context, query, scope, limit) => {
  const semantic = await semanticSearch(context, query, scope, limit);
  if (semantic.items.length || !semantic.fallback) return semantic;
  const keyword = await keywordSearch(context, query, scope, limit);
  return { ...keyword, fallback: `${semantic.fallback}; keyword results instead` };
};

/**
 * Keyword and semantic rankings fused by reciprocal rank fusion (k = 60) rather than by mixing BM25
 * with cosine; keyword alone (and why) when the semantic side has no results.
 */
const hybrid: SearchMode = async (context, query, scope, limit) => {
  const [keyword, semantic] = await Promise.all([keywordSearch(context, query, scope, limit), semanticSearch(context, query, scope, limit)]);
  if (!semantic.items.length) return { ...keyword, fallback: `no vector results${semantic.fallback ? ` (${semantic.fallback})` : ''}; keyword results only` };
  return { items: reciprocalRankFusion([keyword.items, semantic.items], limit), fallback: keyword.fallback };
};

const graph = createGraphSearch({
  seedNodes: async (context, query, k, scope) => (await semanticNodes(context, query, scope ?? everything, k)).items,
  vectorChunks: async (context, query, k, scope) => (await semanticChunks(context, query, scope ?? everything, k)).items,
});

/** The modes this process can run; a mode not registered here is refused with 422. */
export const searchModes: Partial<Record<SearchType, SearchMode>> = {
  keyword: keywordSearch,
  semantic: semanticOrKeyword,
  hybrid,
  graph,
};

/** Runs one mode, or throws 422 VALIDATION_FAILED when `type` has no registered mode. */
export async function runSearch(context: SearchContext, type: SearchType, query: string, scope: SearchScope, limit: number): Promise<ModeResult> {
  const mode = Object.hasOwn(searchModes, type) ? searchModes[type] : undefined;
  if (!mode) {
    const available = Object.keys(searchModes).join(', ');
    throw ApiError.validation(
      [{ loc: ['query', 'search_type'], msg: `search_type '${type}' is not available (available: ${available})`, type: 'enum' }],
      `search_type '${type}' is not available`,
    );
  }
  return mode(context, query, scope, limit);
}
