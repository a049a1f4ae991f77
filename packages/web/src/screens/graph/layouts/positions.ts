import type { KnowledgeGraph } from '../../../lib/graph-model.ts';

export interface Point {
  x: number;
  y: number;
}
export type Positions = Map<string, Point>;

/** The distance between two neighbouring entities in the computed layouts, in graph units. */
export const spacing = 10;

/** Every node's current position. */
export function positionsOf(graph: KnowledgeGraph): Positions {
  const positions: Positions = new Map();
  graph.forEachNode((id, { x, y }) => positions.set(id, { x, y }));
  return positions;
}

/** Moves the nodes to the given positions in one update (one redraw); nodes without one stay where they are. */
export function applyPositions(graph: KnowledgeGraph, positions: Positions): void {
  graph.updateEachNodeAttributes(
    (id, attributes) => {
      const point = positions.get(id);
      return point ? { ...attributes, x: point.x, y: point.y } : attributes;
    },
    { attributes: ['x', 'y'] },
  );
}

/** The nodes in a stable reading order: by type, then by name. */
export function byTypeAndName(graph: KnowledgeGraph): string[] {
  return graph
    .nodes()
    .sort(
      (a, b) =>
        graph.getNodeAttribute(a, 'templateId').localeCompare(graph.getNodeAttribute(b, 'templateId')) ||
        graph.getNodeAttribute(a, 'label').localeCompare(graph.getNodeAttribute(b, 'label')),
    );
}

/** The node with the most edges: where a radial or hierarchical layout starts when nothing is chosen. */
export function hubOf(graph: KnowledgeGraph, among: Iterable<string> = graph.nodes()): string | undefined {
  let best: string | undefined;
  let most = -1;
  for (const id of among) {
    const degree = graph.degree(id);
    if (degree > most) {
      best = id;
      most = degree;
    }
  }
  return best;
}
