import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { byTypeAndName, spacing, type Positions } from './positions.ts';

/** Every entity on one circle, grouped by type, so a type reads as an arc. */
export function circularLayout(graph: KnowledgeGraph): Positions {
  const order = byTypeAndName(graph);
  const radius = Math.max(spacing, (order.length * spacing) / (2 * Math.PI));
  return new Map(
    order.map((id, index) => {
      const angle = (index / order.length) * 2 * Math.PI;
      return [id, { x: Math.cos(angle) * radius, y: Math.sin(angle) * radius }];
    }),
  );
}

/** Every entity on a square grid, row by row, grouped by type then name. */
export function gridLayout(graph: KnowledgeGraph): Positions {
  const order = byTypeAndName(graph);
  const columns = Math.max(1, Math.ceil(Math.sqrt(order.length)));
  return new Map(
    order.map((id, index) => [id, { x: (index % columns) * spacing, y: -Math.floor(index / columns) * spacing }]),
  );
}
