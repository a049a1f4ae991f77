import { useCallback, useRef, type RefObject } from 'react';
import { Button, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { countOf } from '../../../lib/format.ts';
import type { CanvasHandle } from '../GraphCanvas.tsx';
import { collapsedRadius, tintOf } from './ClusterHalos.tsx';
import type { SourceCluster } from './source-clusters.ts';
import { clusterKey } from './use-canvas-layout.ts';
import { useClusterFrames, type ClusterOnScreen } from './use-cluster-frames.ts';

/** How far (pixels) a label keeps from the rim of its cluster and from the top of the canvas. */
const inset = 6;
/** A label is no wider than its disc (its name cut short), so neighbours' labels do not overlap, within these bounds (pixels). */
const width = { least: 120, most: 220 };

/**
 * A button on each source's cluster, following it as the camera moves: it names the source and collapses or
 * expands its entities (the full name in its accessible name and tooltip). An open cluster's name sits inside
 * the top of its disc (held below the top of the canvas when the disc reaches past it); a collapsed one's
 * under its solid disc.
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
  const place = useCallback(
    (cluster: SourceCluster, { centre, radius }: ClusterOnScreen) => {
      const button = buttons.current.get(clusterKey(cluster));
      if (!button) return;
      const top = collapsed.has(clusterKey(cluster))
        ? centre.y + collapsedRadius + inset
        : Math.max(centre.y - radius + inset, inset);
      button.style.transform = `translate(${Math.round(centre.x)}px, ${Math.round(top)}px) translate(-50%, 0)`;
      button.style.maxWidth = `${Math.round(Math.min(width.most, Math.max(width.least, radius * 2)))}px`;
    },
    [collapsed],
  );
  useClusterFrames(canvas, clusters, place);

  return (
    <>
      {clusters.map((cluster, index) => {
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
            title={title}
            style={{ zIndex: 1, borderLeft: `4px solid var(--mantine-color-${tintOf(index)}-filled)` }}
            leftSection={closed ? <IconChevronRight size={12} /> : <IconChevronDown size={12} />}
            aria-expanded={!closed}
            aria-label={`${title}, ${countOf(cluster.members.length, 'entity', 'entities')}: ${closed ? 'expand' : 'collapse'}`}
            onClick={() => onToggle(key)}
            data-testid="cluster-label"
          >
            <Text span inherit truncate="end" miw={0}>
              {title}
            </Text>
            &nbsp;· {cluster.members.length.toLocaleString()}
          </Button>
        );
      })}
    </>
  );
}
