import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { spacing, type Point, type Positions } from './positions.ts';

export interface SourceCluster {
  /** The source the entities were first found in; null for entities made by hand. */
  sourceId: string | null;
  members: string[];
  centre: Point;
  radius: number;
}

const goldenAngle = Math.PI * (3 - Math.sqrt(5));

/** The entities grouped by their source, largest group first. */
export function sourceGroups(graph: KnowledgeGraph): { sourceId: string | null; members: string[] }[] {
  const groups = new Map<string | null, string[]>();
  graph.forEachNode((id, { sourceId }) => {
    const members = groups.get(sourceId);
    if (members) members.push(id);
    else groups.set(sourceId, [id]);
  });
  return [...groups]
    .map(([sourceId, members]) => ({ sourceId, members }))
    .sort((a, b) => b.members.length - a.members.length);
}

/**
 * One disc per source, its entities on a sunflower spiral inside (evenly spread, best-connected in the
 * middle), the discs in rows from the largest, so each source reads as a cluster.
 */
export function sourceClusterLayout(graph: KnowledgeGraph): { positions: Positions; clusters: SourceCluster[] } {
  const positions: Positions = new Map();
  const clusters: SourceCluster[] = [];
  const groups = sourceGroups(graph);
  const total = groups.reduce((sum, group) => sum + group.members.length, 0);
  // Rows about as wide as the whole would be if it were square.
  const rowWidth = Math.max(spacing * 4, Math.sqrt(total) * spacing * 2.2);
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const { sourceId, members } of groups) {
    const radius = spacing * (Math.sqrt(members.length) * 0.6 + 1);
    if (x > 0 && x + radius * 2 > rowWidth) {
      x = 0;
      y -= rowHeight + spacing * 3;
      rowHeight = 0;
    }
    const centre = { x: x + radius, y: y - radius };
    members.sort((a, b) => graph.degree(b) - graph.degree(a));
    members.forEach((id, index) => {
      const distance = spacing * 0.6 * Math.sqrt(index);
      positions.set(id, {
        x: centre.x + Math.cos(index * goldenAngle) * distance,
        y: centre.y + Math.sin(index * goldenAngle) * distance,
      });
    });
    clusters.push({ sourceId, members, centre, radius });
    x += radius * 2 + spacing * 3;
    rowHeight = Math.max(rowHeight, radius * 2);
  }
  return { positions, clusters };
}

/** The corners of the box around every cluster's disc: what to frame to see them all whole. */
export function discArea(clusters: SourceCluster[]): Point[] {
  return clusters.flatMap(({ centre, radius }) => [
    { x: centre.x - radius, y: centre.y - radius },
    { x: centre.x + radius, y: centre.y + radius },
  ]);
}
