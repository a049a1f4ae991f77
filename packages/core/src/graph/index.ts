export type { CanvasPayload } from './canvas.ts';
export { countNodes } from './counts.ts';
export type { EdgeRow, GraphEdge } from './edges/repo.ts';
export { GraphEventBus, publishBulkCreations, type GraphEvent } from './events.ts';
export { groundingNeighbors, groundingNodeDetail, neighborDirections, type NeighborDirection } from './grounding.ts';
export { entityNodeId, newEdgeId, newNodeId, newTemplateId, relationshipEdgeId } from './ids.ts';
export { graphModule } from './module.ts';
export type { NodeRow } from './nodes/repo.ts';
export { textChanged } from './nodes/service.ts';
export { asList, placeholders } from './nodes/sql.ts';
export { nodesLackingVectors, storeNodeVectors, userVectorModel } from './nodes/vectors.ts';
export { indexNewNodes, indexNode, reindexNodes } from './search-index.ts';
export type { GraphService } from './service.ts';
export type { GraphBreakdown } from './snapshot.ts';
export { templateText } from './templates/embeddings.ts';
export { allTemplates, storeTemplateEmbedding, templateVectorStates, type TemplateRow } from './templates/repo.ts';
export { clearGraph } from './writes/clear.ts';
export { edgePropertiesById, insertEdges, rewriteEdges, type EdgeRewrite, type NewEdge } from './writes/edges.ts';
export { insertNodeVectors, nodesToEmbed, type NodeToEmbed } from './writes/node-vectors.ts';
export {
  extractedNodesByNameKey,
  insertNodes,
  rewriteNodes,
  type ExtractedNode,
  type NewNode,
  type NodeText,
} from './writes/nodes.ts';
export {
  linkEdgeSources,
  linkNodeSources,
  linkSourceTemplates,
  removeSourceGraph,
  type EdgeSourceLink,
  type NodeSourceLink,
} from './writes/provenance.ts';
export { insertTemplates, templateIdentities, type NewTemplate, type TemplateIdentity } from './writes/templates.ts';
