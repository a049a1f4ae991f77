import Graph from 'graphology';
import { humanise } from './format.ts';
import type { graphEndpoints } from '@rhizome/contracts/api/graph';
import type { ResponseOf } from '@rhizome/contracts/endpoint';

export type CanvasData = ResponseOf<typeof graphEndpoints.canvas>;
export type CanvasTemplate = CanvasData['templates'][number];

export interface NodeAttributes {
  label: string;
  x: number;
  y: number;
  size: number;
  color: string;
  templateId: string;
  sourceId: string | null;
  /** Whether the position came from the database (false: placed here, not saved yet). */
  saved: boolean;
}

export interface EdgeAttributes {
  /** The relationship as people read it ("works at"), drawn beside the edge. */
  label: string;
  /** The relationship type as stored (`works_at`). */
  relationship: string;
  templateId: string | null;
  size: number;
}

/** Undirected for walking (paths and neighbourhoods ignore direction); each edge keeps its source and target in order. */
export type KnowledgeGraph = Graph<NodeAttributes, EdgeAttributes>;

/** Colours for templates without one of their own, distinct on light and dark backgrounds. */
const palette = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#f08c00',
  '#0c8599',
  '#e03131',
  '#5f3dc4',
  '#66a80f',
  '#c2255c',
  '#868e96',
  '#3b5bdb',
];

/** Each template's colour: its own, else one of the palette in a stable order. */
export function templateColors(templates: CanvasTemplate[]): Map<string, string> {
  const sorted = [...templates].sort((a, b) => a.id.localeCompare(b.id));
  return new Map(sorted.map((template, index) => [template.id, template.color ?? palette[index % palette.length]]));
}

export const fallbackColor = '#868e96';

/** Node size grows with the number of edges, gently (hubs stand out without hiding their neighbours). */
export function sizeFor(degree: number): number {
  return 4 + Math.min(14, Math.sqrt(degree) * 2);
}

/**
 * The canvas as a graph, built in one batch (`import`, sizes from the degrees counted on the way) before any
 * renderer listens; nodes without a saved position are placed near a placed neighbour (or on a spiral).
 */
export function buildGraph(canvas: CanvasData, colors: Map<string, string>): KnowledgeGraph {
  const graph: KnowledgeGraph = new Graph({ type: 'undirected', multi: true, allowSelfLoops: true });
  const degrees = new Map<string, number>(canvas.nodes.map((node) => [node.id, 0]));
  const edgeIds = new Set<string>();
  const edges = canvas.edges.filter((edge) => {
    if (!degrees.has(edge.source_node_id) || !degrees.has(edge.target_node_id) || edgeIds.has(edge.id)) return false;
    edgeIds.add(edge.id);
    degrees.set(edge.source_node_id, degrees.get(edge.source_node_id)! + 1);
    degrees.set(edge.target_node_id, degrees.get(edge.target_node_id)! + 1);
    return true;
  });
  graph.import({
    nodes: canvas.nodes.map((node) => ({
      key: node.id,
      attributes: {
        label: node.label,
        x: node.position?.x ?? 0,
        y: node.position?.y ?? 0,
        size: sizeFor(degrees.get(node.id)!),
        color: colors.get(node.template_id) ?? fallbackColor,
        templateId: node.template_id,
        sourceId: node.source_id,
        saved: node.position !== null,
      },
    })),
    edges: edges.map((edge) => ({
      key: edge.id,
      source: edge.source_node_id,
      target: edge.target_node_id,
      attributes: { label: humanise(edge.label), relationship: edge.label, templateId: edge.template_id, size: 1 },
    })),
  });
  placeUnsaved(graph);
  return graph;
}

/** Sizes every node by its degree, in one update (one event for a renderer, not one per node). */
export function resize(graph: KnowledgeGraph): void {
  graph.updateEachNodeAttributes((node, attributes) => ({ ...attributes, size: sizeFor(graph.degree(node)) }), {
    attributes: ['size'],
  });
}

/** Marks every position as saved, in one update. */
export function markAllSaved(graph: KnowledgeGraph): void {
  graph.updateEachNodeAttributes((_, attributes) => ({ ...attributes, saved: true }), { attributes: ['saved'] });
}

/** How many nodes have no saved position. */
export function unsavedCount(graph: KnowledgeGraph): number {
  let count = 0;
  graph.forEachNode((_, attributes) => {
    if (!attributes.saved) count += 1;
  });
  return count;
}

/** Gives every unplaced node a position: beside a placed neighbour, else on a spiral around the placed ones. */
export function placeUnsaved(graph: KnowledgeGraph, around?: string): void {
  const placed = new Set<string>();
  let spread = 1;
  graph.forEachNode((node, attributes) => {
    if (attributes.saved) {
      placed.add(node);
      spread = Math.max(spread, Math.abs(attributes.x), Math.abs(attributes.y));
    }
  });
  let turn = 0;
  graph.forEachNode((node, attributes) => {
    if (attributes.saved || placed.has(node)) return;
    const anchor =
      (around && placed.has(around) ? around : undefined) ??
      graph.neighbors(node).find((neighbour) => placed.has(neighbour));
    if (anchor) {
      const angle = Math.random() * Math.PI * 2;
      const distance = spread * 0.05 * (0.5 + Math.random());
      graph.mergeNodeAttributes(node, {
        x: graph.getNodeAttribute(anchor, 'x') + Math.cos(angle) * distance,
        y: graph.getNodeAttribute(anchor, 'y') + Math.sin(angle) * distance,
      });
    } else {
      turn += 1;
      const angle = turn * 2.399963;
      const radius = spread * 0.1 * Math.sqrt(turn);
      graph.mergeNodeAttributes(node, { x: Math.cos(angle) * radius, y: Math.sin(angle) * radius });
    }
    placed.add(node);
  });
}

export interface Neighbour {
  node: { id: string; label: string; template_id: string };
  edgeId: string;
  relationship: string;
  direction: 'outgoing' | 'incoming';
}

/** Adds a node's neighbours fetched from the API (beyond the canvas cap); returns how many nodes were new. */
export function addNeighbours(
  graph: KnowledgeGraph,
  centre: string,
  neighbours: Neighbour[],
  colors: Map<string, string>,
): number {
  let added = 0;
  for (const { node, edgeId, relationship, direction } of neighbours) {
    if (!graph.hasNode(node.id)) {
      graph.addNode(node.id, {
        label: node.label,
        x: 0,
        y: 0,
        size: 4,
        color: colors.get(node.template_id) ?? fallbackColor,
        templateId: node.template_id,
        sourceId: null,
        saved: false,
      });
      added += 1;
    }
    if (graph.hasEdge(edgeId)) continue;
    const [source, target] = direction === 'outgoing' ? [centre, node.id] : [node.id, centre];
    graph.addEdgeWithKey(edgeId, source, target, {
      label: humanise(relationship),
      relationship,
      templateId: null,
      size: 1,
    });
  }
  placeUnsaved(graph, centre);
  resize(graph);
  return added;
}

/** The nodes whose label contains the text (case-insensitive), those starting with it first. */
export function findNodes(graph: KnowledgeGraph, text: string, limit = 20): { id: string; label: string }[] {
  const wanted = text.trim().toLocaleLowerCase();
  if (!wanted) return [];
  const starts: { id: string; label: string }[] = [];
  const contains: { id: string; label: string }[] = [];
  graph.forEachNode((id, { label }) => {
    const lower = label.toLocaleLowerCase();
    if (lower.startsWith(wanted)) starts.push({ id, label });
    else if (lower.includes(wanted)) contains.push({ id, label });
  });
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
  return [...starts.sort(byLabel), ...contains.sort(byLabel)].slice(0, limit);
}
