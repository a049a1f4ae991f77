import { nodeEndpoints, type NodeSortField } from '@rhizome/contracts/api/graph-nodes';
import { searchEndpoints, searchLimitMax } from '@rhizome/contracts/api/search';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api } from '../../lib/api.ts';
import { useEndpoint, useEndpointEach, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import type { SortChoice, SortOrder } from './SortControl.tsx';

export type Entity = ResponseOf<typeof nodeEndpoints.get>;

export const entityPageSize = 50;

export interface EntityFilter {
  type: string;
  source: string;
  /** A source tag: the entities of the sources carrying it. */
  tag: string;
  /** An entity tag: the entities carrying it. */
  entity_tag: string;
  q: string;
  /** The sort field (creation order when empty) and its direction (the field's own when empty). */
  sort: string;
  order: string;
  page: number;
}

/** The orders the entity list offers, each starting the way a person reads it first. */
export const entitySortChoices: readonly SortChoice<NodeSortField>[] = [
  { value: 'created_at', label: 'Added', order: 'asc' },
  { value: 'label', label: 'Name', order: 'asc' },
  { value: 'template_id', label: 'Type', order: 'asc' },
  { value: 'source_count', label: 'Sources', order: 'desc' },
  { value: 'degree', label: 'Degree', order: 'desc' },
  { value: 'confidence', label: 'Confidence', order: 'desc' },
  { value: 'updated_at', label: 'Updated', order: 'desc' },
];

/** The list query's order for a sort field and direction read from the address; unknown values are dropped. */
export function sortQuery<By extends string>(
  choices: readonly SortChoice<By>[],
  sort: string,
  order: string,
): { sort_by?: By; sort_order?: SortOrder } {
  const chosen = choices.find((choice) => choice.value === sort);
  const direction = order === 'asc' || order === 'desc' ? order : undefined;
  return { sort_by: chosen?.value, sort_order: chosen || direction ? (direction ?? chosen?.order) : undefined };
}

export interface EntityPage {
  rows: Entity[] | undefined;
  total: number;
  loading: boolean;
  error: string | null;
  reload: () => void;
  /** Every id the filter matches, across pages, for "all N matching". */
  allIds: () => Promise<string[]>;
}

/**
 * The sources the source and tag filters leave: `undefined` for no such filter, an empty list when they
 * leave none. A tag stands for the sources that carry it.
 */
export function useSourceScope(filter: Pick<EntityFilter, 'source' | 'tag'>): {
  scope: string[] | undefined;
  ready: boolean;
} {
  const tagged = useEndpointPages(sourceEndpoints.list, filter.tag ? { query: { tag_id: filter.tag } } : null);
  if (!filter.tag) return { scope: filter.source ? [filter.source] : undefined, ready: true };
  if (!tagged.data) return { scope: undefined, ready: false };
  const ids = tagged.data.map((source) => source.id);
  return { scope: filter.source ? ids.filter((id) => id === filter.source) : ids, ready: true };
}

/**
 * One page of entities from the server: `GET /nodes` a page at a time with their counts; with a search, the
 * keyword search's entity hits (its best 1,000), each page's entities read in full.
 */
export function useEntityPage(filter: EntityFilter): EntityPage {
  const { scope, ready } = useSourceScope(filter);
  const none = scope !== undefined && scope.length === 0;
  const templateId = filter.type || undefined;
  const tagId = filter.entity_tag || undefined;
  const searching = filter.q.trim() !== '';
  const listQuery = {
    template_id: templateId,
    source_ids: scope,
    tag_id: tagId,
    page: filter.page,
    page_size: entityPageSize,
    include_stats: true,
    ...sortQuery(entitySortChoices, filter.sort, filter.order),
  };
  const listed = useEndpoint(nodeEndpoints.list, ready && !none && !searching ? { query: listQuery } : null);
  const searchQuery = {
    q: filter.q.trim(),
    search_type: 'keyword' as const,
    limit: searchLimitMax,
    template_id: templateId,
    source_ids: scope,
  };
  const found = useEndpoint(searchEndpoints.search, ready && !none && searching ? { query: searchQuery } : null);
  // The search knows no entity tags: its hits are narrowed to the tagged entities here.
  const tagged = useEndpointPages(
    nodeEndpoints.list,
    searching && tagId ? { query: { tag_id: tagId, minimal: true } } : null,
  );
  const taggedIds = tagId && tagged.data ? new Set(tagged.data.map((node) => node.id)) : undefined;
  const hitIds = (found.data?.data ?? []).flatMap((hit) =>
    hit.node && (!taggedIds || taggedIds.has(hit.node.id)) ? [hit.node.id] : [],
  );
  const start = (filter.page - 1) * entityPageSize;
  const pageIds = hitIds.slice(start, start + entityPageSize);
  const hits = useEndpointEach(
    nodeEndpoints.get,
    found.data ? pageIds.map((node_id) => ({ params: { node_id } })) : undefined,
  );

  if (none) return { rows: [], total: 0, loading: false, error: null, reload: () => {}, allIds: async () => [] };
  if (searching)
    return {
      rows: hits.data,
      total: hitIds.length,
      loading:
        found.loading ||
        (tagId !== undefined && !tagged.data) ||
        (found.data !== undefined && hits.data === undefined && !hits.error),
      error: found.error ?? tagged.error ?? hits.error,
      reload: () => void found.reload(),
      allIds: async () => hitIds,
    };
  return {
    rows: listed.data?.data as Entity[] | undefined,
    total: listed.data?.pagination.total ?? 0,
    loading: listed.loading || !ready,
    error: listed.error,
    reload: () => void listed.reload(),
    allIds: () => allNodeIds({ template_id: templateId, source_ids: scope, tag_id: tagId }),
  };
}

const idPageSize = 1000;

/** The ids of every node a filter matches, a page of minimal nodes at a time. */
async function allNodeIds(query: { template_id?: string; source_ids?: string[]; tag_id?: string }): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api.call(nodeEndpoints.list, {
      query: { ...query, page, page_size: idPageSize, minimal: true },
    });
    ids.push(...answer.data.map((node) => node.id));
    if (!answer.pagination.has_next) return ids;
  }
}
