import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { BadInput } from '@rhizome/contracts/errors';
import { graphModule } from '@rhizome/core/graph';
import { sourcesModule } from '@rhizome/core/sources';
import type { RequestScope } from '../http/request-scope.ts';
import { nodeView, sourceProgress } from './tools/index.ts';

export const resourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: 'rhizome://sources/{id}',
    name: 'source',
    description: 'A document: its status, extraction progress and counts',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'rhizome://nodes/{id}',
    name: 'node',
    description: 'A node with its properties and relationships',
    mimeType: 'application/json',
  },
];

const listedSources = 100;

/** The most recent sources as resources (nodes are too many to list: read them by template). */
export async function listResources(scope: RequestScope): Promise<Resource[]> {
  const { rows } = await (await scope.service(sourcesModule)).list({}, { offset: 0, limit: listedSources });
  return rows.map((source) => ({
    uri: `rhizome://sources/${encodeURIComponent(source.id)}`,
    name: source.title ?? source.filename ?? source.id,
    mimeType: 'application/json',
    description: `${source.source_type}, ${source.status}`,
  }));
}

export async function readResource(scope: RequestScope, uri: string): Promise<ReadResourceResult> {
  const match = /^rhizome:\/\/(sources|nodes)\/([^/]+)$/.exec(uri);
  if (!match)
    throw BadInput.field(`Unknown resource '${uri}': expected rhizome://sources/{id} or rhizome://nodes/{id}`, 'uri');
  const id = decodeURIComponent(match[2]);
  let body: unknown;
  if (match[1] === 'sources') body = await sourceProgress(scope, id);
  else {
    const graph = await scope.service(graphModule);
    const node = await nodeView(graph, id);
    const { neighbors } = await graph.groundingNeighbors(id, 'both', 100);
    body = {
      node,
      edges: neighbors.map((neighbor) => ({
        edge_id: neighbor.edge_id,
        relationship: neighbor.relationship_type,
        direction: neighbor.direction,
        node_id: neighbor.node.id,
        label: neighbor.node.label,
      })),
    };
  }
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
}
