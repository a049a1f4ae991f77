import { useEffect, useRef, type RefObject } from 'react';
import { Button } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { countOf } from '../../../lib/format.ts';
import type { CanvasHandle } from '../GraphCanvas.tsx';
import type { SourceCluster } from './source-clusters.ts';
import { clusterKey } from './use-canvas-layout.ts';

/**
 * A button over each source's cluster, following it as the camera moves (placed after each frame, without
 * a render of React): it names the source and collapses or expands its entities.
 */
export function ClusterLabels({
  canvas,
  clusters,
  collapsed,
  titleOf,
  onToggle,
}: {
  canvas: RefObject<CanvasHandle | null>;
  clusters: SourceCluster[];
  collapsed: Set<string>;
  titleOf: (sourceId: string | null) => string;
  onToggle: (key: string) => void;
}) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    const handle = canvas.current;
    if (!handle) return;
    const place = () => {
      for (const cluster of clusters) {
        const button = buttons.current.get(clusterKey(cluster));
        const at = handle.viewportAt({ x: cluster.centre.x, y: cluster.centre.y + cluster.radius });
        if (button && at)
          button.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(-50%, -100%)`;
      }
    };
    place();
    return handle.onFrame(place);
  }, [canvas, clusters]);

  return (
    <>
      {clusters.map((cluster) => {
        const key = clusterKey(cluster);
        const closed = collapsed.has(key);
        const title = titleOf(cluster.sourceId);
        return (
          <Button
            key={key}
            ref={(element) => {
              if (element) buttons.current.set(key, element);
              else buttons.current.delete(key);
            }}
            size="compact-xs"
            variant={closed ? 'filled' : 'default'}
            pos="absolute"
            top={0}
            left={0}
            maw={220}
            style={{ zIndex: 1 }}
            leftSection={closed ? <IconChevronRight size={12} /> : <IconChevronDown size={12} />}
            aria-expanded={!closed}
            aria-label={`${title}, ${countOf(cluster.members.length, 'entity', 'entities')}: ${closed ? 'expand' : 'collapse'}`}
            onClick={() => onToggle(key)}
            data-testid="cluster-label"
          >
            {title} · {cluster.members.length.toLocaleString()}
          </Button>
        );
      })}
    </>
  );
}
