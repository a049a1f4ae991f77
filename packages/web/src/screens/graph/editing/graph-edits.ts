import { humanise } from '../../../lib/format.ts';
import { fallbackColor, sizeFor, type KnowledgeGraph } from '../../../lib/graph-model.ts';

/** An entity as the API answered its creation. */
export interface CreatedNode {
  id: string;
  label: string;
  template_id: string;
  source_id: string | null;
  position: { x: number; y: number } | null;
}

/** An edge as the API answered its creation or update. */
export interface SavedEdge {
  id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  template_id: string;
}

/**
 * The loaded graph kept in step with a change the canvas made itself: the renderer redraws the one item
 * rather than the whole canvas loading again.
 */
export function addCreatedNode(graph: KnowledgeGraph, node: CreatedNode, colors: Map<string, string>): void {
  if (graph.hasNode(node.id)) return;
  graph.addNode(node.id, {
    label: node.label,
    x: node.position?.x ?? 0,
    y: node.position?.y ?? 0,
    size: sizeFor(0),
    color: colors.get(node.template_id) ?? fallbackColor,
    templateId: node.template_id,
    sourceId: node.source_id,
    saved: node.position !== null,
  });
}

export function putEdge(graph: KnowledgeGraph, edge: SavedEdge): void {
  const attributes = {
    label: humanise(edge.label),
    relationship: edge.label,
    templateId: edge.template_id,
    size: 1,
  };
  if (graph.hasEdge(edge.id)) graph.replaceEdgeAttributes(edge.id, attributes);
  else if (graph.hasNode(edge.source_node_id) && graph.hasNode(edge.target_node_id)) {
    graph.addEdgeWithKey(edge.id, edge.source_node_id, edge.target_node_id, attributes);
    resizeEnds(graph, edge.source_node_id, edge.target_node_id);
  }
}

export function dropEdge(graph: KnowledgeGraph, id: string): void {
  if (!graph.hasEdge(id)) return;
  const [source, target] = graph.extremities(id);
  graph.dropEdge(id);
  resizeEnds(graph, source, target);
}

export function dropNode(graph: KnowledgeGraph, id: string): void {
  if (!graph.hasNode(id)) return;
  const neighbours = graph.neighbors(id);
  graph.dropNode(id);
  resizeEnds(graph, ...neighbours);
}

function resizeEnds(graph: KnowledgeGraph, ...ids: string[]): void {
  for (const id of ids) graph.setNodeAttribute(id, 'size', sizeFor(graph.degree(id)));
}
