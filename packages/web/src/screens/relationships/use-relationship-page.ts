import { useMemo } from 'react';
import { edgeEndpoints, nodeEndpoints, type EdgeSortField } from '@rhizome/contracts/api/graph-nodes';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api } from '../../lib/api.ts';
import { humanise } from '../../lib/format.ts';
import { useEndpoint, useEndpointEach } from '../../lib/data/use-endpoint.ts';
import type { SortChoice, SortOrder } from '../entities/SortControl.tsx';

export type Relationship = ResponseOf<typeof edgeEndpoints.get>;

export const relationshipPageSize = 50;

/** The orders the relationship list offers. */
export const relationshipSortChoices: readonly SortChoice<EdgeSortField>[] = [
  { value: 'created_at', label: 'Added', order: 'asc' },
  { value: 'label', label: 'Relationship', order: 'asc' },
  { value: 'source_count', label: 'Sources', order: 'desc' },
  { value: 'confidence', label: 'Confidence', order: 'desc' },
  { value: 'updated_at', label: 'Updated', order: 'desc' },
];

/** What the relationship list shows: the sources' relationships (every source when undefined) of one type or all. */
export interface RelationshipQuery {
  sourceIds: string[] | undefined;
  /** The relationship type (label), or undefined for every type. */
  label: string | undefined;
  page: number;
  order: { sort_by?: EdgeSortField; sort_order?: SortOrder };
}

/** One server page of relationships (`GET /edges`), with the names of the entities at their ends. */
export function useRelationshipPage({ sourceIds, label, page, order }: RelationshipQuery) {
  const none = sourceIds !== undefined && sourceIds.length === 0;
  const listed = useEndpoint(
    edgeEndpoints.list,
    none ? null : { query: { source_ids: sourceIds, label, page, page_size: relationshipPageSize, ...order } },
  );
  const rows = listed.data?.data as Relationship[] | undefined;
  const ends = [...new Set((rows ?? []).flatMap((row) => [row.source_node_id, row.target_node_id]))];
  const nodes = useEndpointEach(nodeEndpoints.get, rows ? ends.map((node_id) => ({ params: { node_id } })) : undefined);
  const names = new Map((nodes.data ?? []).map((node) => [node.id, node.label]));
  return {
    rows: none ? [] : rows,
    total: none ? 0 : (listed.data?.pagination.total ?? 0),
    loading: listed.loading,
    error: listed.error,
    reload: () => void listed.reload(),
    nameOf: (id: string) => names.get(id) ?? '…',
    allIds: () => allEdgeIds(sourceIds, label),
  };
}

/** The relationship types in use, most used first, as the type filter offers them. */
export function useRelationshipTypes() {
  const labels = useEndpoint(edgeEndpoints.labels);
  return useMemo(
    () =>
      (labels.data?.data ?? []).map(({ label, count }) => ({
        value: label,
        label: `${humanise(label)} (${count})`,
      })),
    [labels.data],
  );
}

/** The ids of every edge the filter matches, a page of minimal edges at a time. */
async function allEdgeIds(sourceIds: string[] | undefined, label: string | undefined): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api.call(edgeEndpoints.list, {
      query: { source_ids: sourceIds, label, page, page_size: 1000, minimal: true },
    });
    ids.push(...answer.data.map((edge) => edge.id));
    if (!answer.pagination.has_next) return ids;
  }
}
