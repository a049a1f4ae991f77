import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { hubOf, spacing, type Positions } from './positions.ts';

/**
 * Rings around one entity (the selected one, else the best-connected): its neighbours on the first ring,
 * theirs on the next, each ring ordered by the place of the entity it was reached from, so branches stay
 * together. Entities not connected to it go on one more ring outside.
 */
export function radialLayout(graph: KnowledgeGraph, centre: string | null): Positions {
  const start = centre && graph.hasNode(centre) ? centre : hubOf(graph);
  const positions: Positions = new Map();
  if (!start) return positions;
  const rings: string[][] = [[start]];
  const seen = new Set([start]);
  for (let ring = rings[0]; ring.length;) {
    const next: string[] = [];
    for (const id of ring)
      graph.forEachNeighbor(id, (neighbour) => {
        if (seen.has(neighbour)) return;
        seen.add(neighbour);
        next.push(neighbour);
      });
    if (next.length) rings.push(next);
    ring = next;
  }
  const rest = graph.filterNodes((id) => !seen.has(id));
  if (rest.length) rings.push(rest);
  positions.set(start, { x: 0, y: 0 });
  let radius = 0;
  for (const ring of rings.slice(1)) {
    // Far enough out for the previous ring, and for this one's entities to sit a spacing apart.
    radius = Math.max(radius + spacing * 2, (ring.length * spacing) / (2 * Math.PI));
    ring.forEach((id, index) => {
      const angle = (index / ring.length) * 2 * Math.PI;
      positions.set(id, { x: Math.cos(angle) * radius, y: Math.sin(angle) * radius });
    });
  }
  return positions;
}
