import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { computeLayout } from './compute-layout.ts';
import type { LayoutName } from './layout-names.ts';
import { applyPositions, positionsOf, type Positions } from './positions.ts';
import type { SourceCluster } from './source-clusters.ts';

/** A cluster's key: its source id, or '' for the entities made by hand. */
export const clusterKey = (cluster: Pick<SourceCluster, 'sourceId'>) => cluster.sourceId ?? '';

/**
 * The arrangement the person chose, applied to each graph as it loads. Force is the saved, physical layout;
 * the others are computed here and never saved, so going back to force puts every entity back where it was. Grouped by source, a cluster can be collapsed:
 * its entities are hidden until it is expanded.
 */
export function useCanvasLayout(graph: KnowledgeGraph | undefined, name: LayoutName, selected: string | null) {
  const forcePositions = useRef<{ graph: KnowledgeGraph; positions: Positions } | null>(null);
  const centre = useRef(selected);
  centre.current = selected;
  const [clusters, setClusters] = useState<SourceCluster[]>([]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());

  const arrange = useCallback((target: KnowledgeGraph, layout: LayoutName) => {
    const kept = forcePositions.current?.graph === target ? forcePositions.current.positions : null;
    if (layout === 'force') {
      if (kept) applyPositions(target, kept);
      forcePositions.current = null;
      setClusters([]);
      return;
    }
    if (!kept) forcePositions.current = { graph: target, positions: positionsOf(target) };
    const computed = computeLayout(layout, target, centre.current);
    applyPositions(target, computed.positions);
    setClusters(computed.clusters);
  }, []);

  useEffect(() => {
    if (graph) arrange(graph, name);
  }, [graph, name, arrange]);

  const hiddenByClusters = useMemo(() => {
    const hidden = new Set<string>();
    for (const cluster of clusters)
      if (collapsed.has(clusterKey(cluster))) cluster.members.forEach((id) => hidden.add(id));
    return hidden;
  }, [clusters, collapsed]);

  return {
    /** The same layout once more: a radial one around the entity selected now. */
    rearrange: () => graph && arrange(graph, name),
    clusters,
    collapsed,
    toggleCluster: (key: string) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    hiddenByClusters,
  };
}
