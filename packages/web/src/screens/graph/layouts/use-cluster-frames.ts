import { useEffect, type RefObject } from 'react';
import type { CanvasHandle, Point } from '../GraphCanvas.tsx';
import type { SourceCluster } from './source-clusters.ts';

/** Where a cluster is drawn now: its middle and its radius, in pixels of the canvas. */
export interface ClusterOnScreen {
  centre: Point;
  radius: number;
}

/**
 * Calls `place` for every cluster after each frame the canvas draws (and once at once), with where the
 * cluster lies on screen: what floats over or under the drawing follows the camera without a render of React.
 */
export function useClusterFrames(
  canvas: RefObject<CanvasHandle | null>,
  clusters: SourceCluster[],
  place: (cluster: SourceCluster, onScreen: ClusterOnScreen) => void,
): void {
  useEffect(() => {
    const handle = canvas.current;
    if (!handle) return;
    const placeAll = () => {
      for (const cluster of clusters) {
        const centre = handle.viewportAt(cluster.centre);
        const rim = handle.viewportAt({ x: cluster.centre.x + cluster.radius, y: cluster.centre.y });
        if (centre && rim) place(cluster, { centre, radius: Math.hypot(rim.x - centre.x, rim.y - centre.y) });
      }
    };
    placeAll();
    return handle.onFrame(placeAll);
  }, [canvas, clusters, place]);
}
