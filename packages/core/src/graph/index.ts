export type { CanvasPayload } from './canvas.ts';
export { countNodes } from './counts.ts';
export type { EdgeRow, GraphEdge } from './edges/repo.ts';
export { GraphEventBus, publishBulkCreations, type GraphEvent } from './events.ts';
export { groundingNeighbors, groundingNodeDetail, neighborDirections, type NeighborDirection } from './grounding.ts';
export { probablyDuplicated } from './duplicates/proposals.ts';
export { entityNodeId, newEdgeId, newNodeId, newTemplateId, relationshipEdgeId } from './ids.ts';
export { sameKindOfThing } from './type-kinds.ts';
export { graphModule } from './module.ts';
export { mergeAliases, normalizeNameKey } from './names.ts';
export { clearGraphContents, clearUserTemplates, type ClearedGraph } from './reset.ts';
export type { CitationRows, MergedCitations } from './nodes/merge.ts';
export type { NodeRow } from './nodes/repo.ts';
export { nodesOfDisabledSourcesOnly, nodesOfSources } from './read-model.ts';
export { textChanged } from './nodes/service.ts';
export { nodesLackingVectors, storeNodeVectors, userVectorModel } from './nodes/vectors.ts';
export { indexNewNodes, indexNode, reindexNodes } from './search-index.ts';
export type { GraphService } from './service.ts';
export type { GraphBreakdown } from './snapshot.ts';
export { templateText } from './templates/embeddings.ts';
export { allTemplates, storeTemplateEmbedding, templateVectorStates, type TemplateRow } from './templates/repo.ts';
export { clearGraph } from './writes/clear.ts';
export { edgePropertiesById, insertEdges, rewriteEdges, type EdgeRewrite, type NewEdge } from './writes/edges.ts';
export { insertNodeVectors, nodesToEmbed } from './writes/node-vectors.ts';
export { insertNodes, nodesByNameKey, rewriteNodes, type KeyedNode, type NewNode } from './writes/nodes.ts';
export {
  linkEdgeSources,
  linkNodeSources,
  linkSourceTemplates,
  removeSourceGraph,
  type EdgeSourceLink,
  type NodeSourceLink,
} from './writes/provenance.ts';
export { insertTemplates, templateIdentities, type NewTemplate } from './writes/templates.ts';
export type { WalkFilter } from './walk.ts';
