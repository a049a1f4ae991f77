import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Page, PageNumber, Timestamp } from './common.ts';
import { NodeResponse } from './graph-nodes.ts';

/** Merging duplicate nodes into one: an addition of Rhizome's. */

export const maxMergedNodes = 100;

export const NodeMergeResult = Type.Object({
  merge_id: Type.String({
    description: 'undo it with POST /nodes/merges/{merge_id}/undo, within the retention window',
  }),
  node: NodeResponse,
  merged_node_ids: Type.Array(Type.String(), { description: 'the nodes merged in, now deleted' }),
  edges_moved: Type.Integer({ description: 'edges re-pointed to the kept node' }),
  edges_collapsed: Type.Integer({
    description:
      'edges that duplicated one of the kept node (same ends and label): their citations and sources moved to it, then they were deleted',
  }),
  edges_removed: Type.Integer({
    description: 'edges between the merged nodes and the kept node, which would have become self-loops',
  }),
  citations_moved: Type.Integer(),
});

export const MergeRecord = Type.Object({
  merge_id: Type.String(),
  kept_node_id: Type.String(),
  kept_label: Type.String({ description: "the kept node's label when it was merged" }),
  merged: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
  merged_at: Timestamp,
  undoable: Type.Boolean({ description: 'not undone yet and still inside the retention window' }),
  expires_at: Timestamp,
});

export const MergeUndoResult = Type.Object({
  merge_id: Type.String(),
  restored_node_ids: Type.Array(Type.String()),
  kept_node_id: Type.String(),
});

const MergeIdParam = Type.Object({ merge_id: Type.String({ minLength: 1 }) });

export const nodeMergeEndpoints = {
  merge: endpoint({
    method: 'POST',
    path: '/nodes/{node_id}/merge',
    tag: 'nodes',
    status: 200,
    errors: [404, 422],
    summary:
      'Merge other nodes into this one: their edges, citations and sources move to it (duplicate edges collapse), their labels become ' +
      'aliases, their properties fill the ones it lacks, then they are deleted. The search index and vectors follow; nothing changes on a refusal',
    params: Type.Object({ node_id: Type.String({ minLength: 1, description: 'the node that stays' }) }),
    body: Body({
      node_ids: Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: maxMergedNodes,
        uniqueItems: true,
        description: 'the nodes merged into it',
      }),
    }),
    response: NodeMergeResult,
  }),
  merges: endpoint({
    method: 'GET',
    path: '/nodes/merges',
    tag: 'nodes',
    status: 200,
    summary: 'The merges made, newest first, and whether each can still be undone',
    query: Type.Object({
      page: Type.Optional(PageNumber),
      page_size: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: 'default from settings (pagination.default_page_size), capped at pagination.max_page_size',
        }),
      ),
    }),
    response: Page(MergeRecord),
  }),
  undo: endpoint({
    method: 'POST',
    path: '/nodes/merges/{merge_id}/undo',
    tag: 'nodes',
    status: 200,
    errors: [404, 409],
    summary:
      'Undo a merge: the merged nodes come back with their edges, aliases, properties, source links and vectors as they were, ' +
      'and the kept node is as it was before (citations the merge moved stay on the kept node). 404 for an unknown merge or one past the retention window ' +
      '(source_processing.merge_undo_retention_days); 409 when it was undone already or a later change makes an exact restore impossible',
    params: MergeIdParam,
    response: MergeUndoResult,
  }),
};
