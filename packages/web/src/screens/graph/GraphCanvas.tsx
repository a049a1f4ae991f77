import { forwardRef, useEffect, useImperativeHandle, useRef, type KeyboardEvent } from 'react';
import { Box, useComputedColorScheme } from '@mantine/core';
import Graph from 'graphology';
import type { CameraState, NodeDisplayData } from 'sigma/types';
import type { KnowledgeGraph } from '../../lib/graph-model.ts';
import { canvasStyles, edgeViewDefaults, nodeViewDefaults } from './canvas-styles.ts';
import { CanvasRenderer } from './canvas-renderer.ts';
import { ViewStates, type CanvasView } from './view-states.ts';

export type { CanvasView } from './view-states.ts';

export interface CanvasHandle {
  flyTo(id: string): void;
  fit(ids?: string[]): void;
  zoom(direction: 1 | -1): void;
}

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const duration = () => (reducedMotion() ? 0 : 450);
const panStep = 0.1;
/**
 * What a big graph gives up to stay fluid: its edges and labels while the camera moves, and the labels of
 * its smallest nodes (a small graph keeps them all; the label grid still keeps them from overlapping).
 */
const largeGraphSettings = (graph: KnowledgeGraph | null) => ({
  hideEdgesOnMove: (graph?.size ?? 0) > 4_000,
  hideLabelsOnMove: (graph?.order ?? 0) > 2_000,
  labelRenderedSizeThreshold: (graph?.order ?? 0) > 1_000 ? 8 : 0,
});
const emptyGraph = (): KnowledgeGraph => new Graph({ type: 'undirected', multi: true, allowSelfLoops: true });

/**
 * The WebGL drawing of the graph: click to select, drag to move a node, wheel and drag to zoom and pan, arrow
 * keys and +/- too. The renderer is made on mount, so its shaders compile while the data is still on its way;
 * `graph` (null while loading) is then handed to it. While the camera moves the container carries
 * `data-camera="moving"`.
 */
export const GraphCanvas = forwardRef<
  CanvasHandle,
  {
    graph: KnowledgeGraph | null;
    view: CanvasView;
    label: string;
    onSelect: (id: string) => void;
    onMoved: (id: string) => void;
    onFirstFrame?: () => void;
  }
>(function GraphCanvas({ graph, view, label, onSelect, onMoved, onFirstFrame }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const sigma = useRef<CanvasRenderer | null>(null);
  const states = useRef(new ViewStates());
  const camera = useRef<CameraState | null>(null);
  /** The graph whose first frame was announced (a new renderer for a new colour scheme does not announce it again). */
  const framed = useRef<KnowledgeGraph | null>(null);
  const latest = useRef({ graph, view, onSelect, onMoved, onFirstFrame });
  latest.current = { graph, view, onSelect, onMoved, onFirstFrame };
  const scheme = useComputedColorScheme('light');

  const show = (renderer: CanvasRenderer, next: KnowledgeGraph | null) => {
    if (next && next !== framed.current) {
      renderer.once('afterRender', () => {
        framed.current = next;
        latest.current.onFirstFrame?.();
      });
    }
    states.current.reset();
    renderer.setSettings(largeGraphSettings(next));
    renderer.setGraph(next ?? emptyGraph());
    if (next) states.current.apply(next, latest.current.view, renderer);
  };

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const renderer = new CanvasRenderer(emptyGraph(), element, {
      settings: {
        itemSizesReference: 'screen',
        enableNodeDrag: true,
        renderEdgeLabels: true,
        minCameraRatio: 0.02,
        maxCameraRatio: 8,
      },
      styles: canvasStyles(scheme),
      customNodeState: nodeViewDefaults,
      customEdgeState: edgeViewDefaults,
    });
    if (camera.current) renderer.getCamera().setState(camera.current);
    renderer.on('clickNode', ({ node }) => latest.current.onSelect(node));
    renderer.on('nodeDragEnd', ({ node }) => latest.current.onMoved(node));
    const cameraCaptor = renderer.getCamera();
    cameraCaptor.on('animationStart', () => element.setAttribute('data-camera', 'moving'));
    cameraCaptor.on('animationEnd', () => element.setAttribute('data-camera', 'still'));
    sigma.current = renderer;
    show(renderer, latest.current.graph);
    // Sigma sizes its drawing to the container only on a window resize; the layout around it changes more often.
    const resized = new ResizeObserver(() => renderer.scheduleRender());
    resized.observe(element);
    return () => {
      resized.disconnect();
      camera.current = renderer.getCamera().getState();
      renderer.kill();
      sigma.current = null;
    };
  }, [scheme]);

  useEffect(() => {
    const renderer = sigma.current;
    if (renderer && renderer.getGraph() !== graph) show(renderer, graph);
  }, [graph]);

  useEffect(() => {
    const renderer = sigma.current;
    if (renderer && graph && renderer.getGraph() === graph) states.current.apply(graph, view, renderer);
  }, [view]);

  useImperativeHandle(
    ref,
    () => ({
      flyTo(id) {
        const renderer = sigma.current;
        const display = renderer?.getNodeDisplayData(id);
        if (!renderer || !display) return;
        void renderer
          .getCamera()
          .animate(
            { x: display.x, y: display.y, ratio: Math.min(renderer.getCamera().ratio, 0.25) },
            { duration: duration() },
          );
      },
      fit(ids) {
        const renderer = sigma.current;
        if (!renderer) return;
        const points = (ids ?? [])
          .map((id) => renderer.getNodeDisplayData(id))
          .filter((display): display is NodeDisplayData => display !== undefined);
        if (points.length === 0) {
          void renderer.getCamera().animate({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }, { duration: duration() });
          return;
        }
        const xs = points.map((point) => point.x);
        const ys = points.map((point) => point.y);
        const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
        const x = (Math.max(...xs) + Math.min(...xs)) / 2;
        const y = (Math.max(...ys) + Math.min(...ys)) / 2;
        void renderer
          .getCamera()
          .animate({ x, y, ratio: Math.min(1, Math.max(0.08, span * 1.4)) }, { duration: duration() });
      },
      zoom(direction) {
        const camera = sigma.current?.getCamera();
        if (!camera) return;
        void (direction > 0 ? camera.zoomIn({ duration: duration() }) : camera.zoomOut({ duration: duration() }));
      },
    }),
    [],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    const camera = sigma.current?.getCamera();
    if (!camera) return;
    const step = panStep * camera.ratio;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => camera.setState({ x: camera.x - step }),
      ArrowRight: () => camera.setState({ x: camera.x + step }),
      ArrowUp: () => camera.setState({ y: camera.y + step }),
      ArrowDown: () => camera.setState({ y: camera.y - step }),
      '+': () => void camera.zoomIn({ duration: duration() }),
      '=': () => void camera.zoomIn({ duration: duration() }),
      '-': () => void camera.zoomOut({ duration: duration() }),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };

  return (
    <Box
      ref={container}
      h="100%"
      role="application"
      aria-label={label}
      aria-roledescription="graph canvas"
      aria-describedby="graph-canvas-help"
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="graph-canvas"
      data-camera="still"
    />
  );
});
