import { Invalid } from '@rhizome/contracts/errors';
import type { SearchType } from '@rhizome/contracts/api/search';
import { createGraphSearch, type GraphSearchDeps } from './graph/index.ts';
import { passageLead } from './graph/ranking.ts';
import { keywordChunks, keywordSearch } from './keyword.ts';
import { semanticChunks, semanticNodes, semanticSearch } from './semantic.ts';
import type { ModeResult, SearchContext, SearchScope } from './types.ts';

export type { SearchType } from '@rhizome/contracts/api/search';

/** A search mode: ranks nodes and chunks (enabled sources only, within the scope) for `query`, at most `limit` items. */
export type SearchMode = (
  context: SearchContext,
  query: string,
  scope: SearchScope,
  limit: number,
) => Promise<ModeResult>;

const everything: SearchScope = { sourceIds: null, templateId: null };

/** Vector similarity; when there is nothing to search by meaning (index to rebuild, vectors off), keyword results and why. */
const semanticOrKeyword: SearchMode = async (context, query, scope, limit) => {
  const semantic = await semanticSearch(context, query, scope, limit);
  if (semantic.items.length || !semantic.fallback) return semantic;
  const keyword = await keywordSearch(context, query, scope, limit);
  return { ...keyword, fallback: `${semantic.fallback}; keyword results instead` };
};

const graphDeps: GraphSearchDeps = {
  seedNodes: async (context, query, k, scope) => (await semanticNodes(context, query, scope ?? everything, k)).items,
  vectorChunks: async (context, query, k, scope) =>
    (await semanticChunks(context, query, scope ?? everything, k)).items,
  keywordChunks: async (context, query, k, scope) =>
    (await keywordChunks(context, query, { sourceIds: scope?.sourceIds ?? null, templateId: null }, k)).items,
};

const graph = createGraphSearch(graphDeps);

/**
 * Keyword and vector hits, keyword's relative to its best and vector's spread between its lowest and
 * best similarity (`spread`), summed per passage and spread through the graph: the graph walk seeded
 * by both retrievals alike (whatever the embedder), without the triples. With no graph (nothing
 * extracted) every passage stands alone and this is the relative score fusion of the two lists. The
 * first `passageLead` passages of the keyword ranking (`keywordChunks`) lead: vector hits and the walk
 * order what follows, where a weak embedder's guesses cannot push out a passage holding the query's
 * words. Keyword alone (and why) when the semantic side has
 * no results.
 */
const hybrid: SearchMode = async (context, query, scope, limit) => {
  let vectorFallback: string | null = null;
  let vectorFound = false;
  const search = createGraphSearch(
    {
      ...graphDeps,
      vectorChunks: async (innerContext, innerQuery, k, innerScope) => {
        const result = await semanticChunks(innerContext, innerQuery, innerScope ?? everything, k);
        vectorFallback = result.fallback;
        vectorFound = result.items.length > 0;
        return result.items;
      },
    },
    { vectorPassages: 'always', keywordLead: passageLead },
  );
  const { items } = await search(context, query, scope, limit);
  const fallback = vectorFound
    ? null
    : `no vector results${vectorFallback ? ` (${vectorFallback})` : ''}; keyword results only`;
  return { items, fallback };
};

/** The modes this process can run; a mode not registered here is refused with 422. */
export const searchModes: Partial<Record<SearchType, SearchMode>> = {
  keyword: keywordSearch,
  semantic: semanticOrKeyword,
  hybrid,
  graph,
};

/** Runs one mode, or throws 422 VALIDATION_FAILED when `type` has no registered mode. */
export async function runSearch(
  context: SearchContext,
  type: SearchType,
  query: string,
  scope: SearchScope,
  limit: number,
): Promise<ModeResult> {
  const mode = Object.hasOwn(searchModes, type) ? searchModes[type] : undefined;
  if (!mode) {
    const available = Object.keys(searchModes).join(', ');
    throw new Invalid(
      [
        {
          loc: ['query', 'search_type'],
          msg: `search_type '${type}' is not available (available: ${available})`,
          type: 'enum',
        },
      ],
      `search_type '${type}' is not available`,
    );
  }
  return mode(context, query, scope, limit);
}
