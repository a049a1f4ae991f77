import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { hierarchicalLayout } from './hierarchical.ts';
import type { LayoutName } from './layout-names.ts';
import type { Positions } from './positions.ts';
import { radialLayout } from './radial.ts';
import { circularLayout, gridLayout } from './ring-and-grid.ts';
import { sourceClusterLayout, type SourceCluster } from './source-clusters.ts';

/** The positions of a computed layout (every one but force), and the clusters when grouped by source. */
export function computeLayout(
  name: Exclude<LayoutName, 'force'>,
  graph: KnowledgeGraph,
  centre: string | null,
): { positions: Positions; clusters: SourceCluster[] } {
  switch (name) {
    case 'hierarchical':
      return { positions: hierarchicalLayout(graph), clusters: [] };
    case 'radial':
      return { positions: radialLayout(graph, centre), clusters: [] };
    case 'circular':
      return { positions: circularLayout(graph), clusters: [] };
    case 'grid':
      return { positions: gridLayout(graph), clusters: [] };
    case 'sources':
      return sourceClusterLayout(graph);
  }
}
