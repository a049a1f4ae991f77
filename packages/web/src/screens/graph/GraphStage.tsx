import type { KeyboardEvent, ReactNode, RefObject } from 'react';
import { ActionIcon, Button, Center, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconFocusCentered, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { countOf } from '../../lib/format.ts';
import type { KnowledgeGraph } from '../../lib/graph-model.ts';
import type { PointerHandlers } from './canvas-pointer.ts';
import { GraphCanvas, type CanvasHandle, type CanvasView } from './GraphCanvas.tsx';

/**
 * The canvas in its frame: zoom controls, a loader until the graph is in, what to do when it is empty, and
 * what lies under the drawing (`backdrop`: the clusters' discs, seen through the transparent canvas) and what
 * floats over it (`children`: the menu's anchor, the clusters' names).
 */
export function GraphStage({
  canvas,
  graph,
  view,
  labels,
  hiddenCount,
  onFirstFrame,
  onKeyDown,
  backdrop,
  children,
  ...pointer
}: PointerHandlers & {
  canvas: RefObject<CanvasHandle | null>;
  graph: KnowledgeGraph | undefined;
  view: CanvasView;
  labels: boolean;
  /** How many entities of the graph are not drawn (hidden, filtered out by type, in a collapsed cluster). */
  hiddenCount: number;
  onFirstFrame: () => void;
  onKeyDown: (event: KeyboardEvent) => void;
  backdrop?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      pos="relative"
      flex="1 1 480px"
      h={{ base: 'calc(100dvh - 180px)', sm: 'calc(100vh - 260px)' }}
      mih={360}
      style={{ overflow: 'hidden' }}
    >
      <Stack gap={4} pos="absolute" top={8} right={8} style={{ zIndex: 1 }}>
        <Tooltip label="Zoom in" position="left">
          <ActionIcon variant="default" size="lg" aria-label="Zoom in" onClick={() => canvas.current?.zoom(1)}>
            <IconZoomIn size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Zoom out" position="left">
          <ActionIcon variant="default" size="lg" aria-label="Zoom out" onClick={() => canvas.current?.zoom(-1)}>
            <IconZoomOut size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Show everything" position="left">
          <ActionIcon variant="default" size="lg" aria-label="Show everything" onClick={() => canvas.current?.fit()}>
            <IconFocusCentered size={18} />
          </ActionIcon>
        </Tooltip>
      </Stack>
      {backdrop}
      <GraphCanvas
        ref={canvas}
        graph={graph ?? null}
        view={view}
        label={
          graph
            ? `Graph of ${countOf(graph.order, 'entity', 'entities')} and ${countOf(graph.size, 'relationship')}${hiddenCount ? `, ${hiddenCount.toLocaleString()} of the entities not drawn` : ''}`
            : 'Graph, loading'
        }
        labels={labels}
        onKeyDown={onKeyDown}
        onFirstFrame={onFirstFrame}
        {...pointer}
      />
      {children}
      {!graph && (
        <Center pos="absolute" inset={0}>
          <Loader aria-label="Loading the graph" />
        </Center>
      )}
      {graph && graph.order === 0 && (
        <Center pos="absolute" inset={0} p="md" bg="var(--mantine-color-body)">
          <Stack align="center" gap="xs">
            <Text fw={600}>No entities yet</Text>
            <Text c="dimmed" fz="sm" ta="center">
              Add sources and confirm their extraction: the entities found appear here.
            </Text>
            <Button component={Link} to="/sources" size="xs">
              Go to sources
            </Button>
          </Stack>
        </Center>
      )}
    </Paper>
  );
}
