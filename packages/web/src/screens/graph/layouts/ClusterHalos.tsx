import { useCallback, useRef, type RefObject } from 'react';
import type { CanvasHandle } from '../GraphCanvas.tsx';
import type { SourceCluster } from './source-clusters.ts';
import { clusterKey } from './use-canvas-layout.ts';
import { useClusterFrames, type ClusterOnScreen } from './use-cluster-frames.ts';

/** The tints the clusters take in turn (Mantine's, so each reads in both colour schemes). */
const tints = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'indigo'];
/** A collapsed cluster is drawn as one disc of this radius (pixels), whatever the zoom. */
export const collapsedRadius = 22;

export const tintOf = (index: number) => tints[index % tints.length];

/**
 * A tinted disc under each source's cluster, drawn behind the entities (the canvas is transparent), so the
 * groups read as groups; a collapsed cluster shrinks to a solid disc that stands for its entities.
 */
export function ClusterHalos({
  canvas,
  clusters,
  collapsed,
}: {
  canvas: RefObject<CanvasHandle | null>;
  clusters: SourceCluster[];
  collapsed: Set<string>;
}) {
  const circles = useRef(new Map<string, SVGCircleElement>());
  const place = useCallback(
    (cluster: SourceCluster, { centre, radius }: ClusterOnScreen) => {
      const circle = circles.current.get(clusterKey(cluster));
      if (!circle) return;
      circle.setAttribute('cx', String(Math.round(centre.x)));
      circle.setAttribute('cy', String(Math.round(centre.y)));
      circle.setAttribute('r', String(Math.round(collapsed.has(clusterKey(cluster)) ? collapsedRadius : radius)));
    },
    [collapsed],
  );
  useClusterFrames(canvas, clusters, place);

  return (
    <svg
      aria-hidden
      width="100%"
      height="100%"
      style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}
      data-testid="cluster-halos"
    >
      {clusters.map((cluster, index) => {
        const key = clusterKey(cluster);
        const closed = collapsed.has(key);
        const tint = tintOf(index);
        return (
          <circle
            key={key}
            ref={(element) => {
              if (element) circles.current.set(key, element);
              else circles.current.delete(key);
            }}
            fill={`var(--mantine-color-${tint}-${closed ? 'filled' : 'light'})`}
            stroke={`var(--mantine-color-${tint}-outline)`}
            strokeWidth={closed ? 2 : 1.5}
            strokeDasharray={closed ? undefined : '6 4'}
          />
        );
      })}
    </svg>
  );
}
