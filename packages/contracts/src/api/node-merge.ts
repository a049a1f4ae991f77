import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body } from './common.ts';
import { NodeResponse } from './graph-nodes.ts';

/** Merging duplicate nodes into one: an addition of Rhizome's, the spec has no merge. */

export const maxMergedNodes = 100;

export const NodeMergeResult = Type.Object({
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
};
