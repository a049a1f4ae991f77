import { forwardRef, useEffect, useImperativeHandle, useRef, type KeyboardEvent } from 'react';
import { Box, useComputedColorScheme } from '@mantine/core';
import Graph from 'graphology';
import { pathLine, pathLoop } from 'sigma/rendering';
import type { CameraState } from 'sigma/types';
import type { KnowledgeGraph } from '../../lib/graph-model.ts';
import { canvasHandle, duration, type CanvasHandle } from './canvas-handle.ts';
import { wirePointer, type PointerHandlers } from './canvas-pointer.ts';
import { canvasStyles, edgeViewDefaults, nodeViewDefaults } from './canvas-styles.ts';
import { CanvasRenderer } from './canvas-renderer.ts';
import { ViewStates, type CanvasView } from './view-states.ts';

export type { CanvasView } from './view-states.ts';
export type { CanvasHandle, CanvasTarget, Direction, Point } from './canvas-handle.ts';

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
/**
 * The shapes edges are drawn in. Sigma draws every edge with as many vertices as its most detailed path
 * needs: a self-loop's curve takes 66, a straight line 6, and on a software GL the vertex work of 15,000
 * edges in 66 vertices each is seconds per frame. The loop is only drawn for a graph that has one.
 */
const edgePrimitives = (loops: boolean) => ({ paths: loops ? [pathLine(), pathLoop()] : [pathLine()] });
const emptyGraph = (): KnowledgeGraph => new Graph({ type: 'undirected', multi: true, allowSelfLoops: true });

/**
 * The WebGL drawing of the graph: click to select, drag to move a node, Shift+drag from one node to another
 * to link them, right-click for a menu, wheel and drag to zoom and pan, Shift+arrow keys and +/- too (other
 * keys go to `onKeyDown`). The renderer is made on mount, so its shaders compile while the data is still on
 * its way (and made again for a graph with a self-loop, see `edgePrimitives`); `graph` (null while loading)
 * is then handed to it. While the camera moves the container carries `data-camera="moving"`.
 */
export const GraphCanvas = forwardRef<
  CanvasHandle,
  PointerHandlers & {
    graph: KnowledgeGraph | null;
    view: CanvasView;
    label: string;
    /** Whether entities' names are drawn. */
    labels: boolean;
    onKeyDown: (event: KeyboardEvent) => void;
    onFirstFrame?: () => void;
  }
>(function GraphCanvas({ graph, view, label, labels, onKeyDown, onFirstFrame, ...pointer }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const sigma = useRef<CanvasRenderer | null>(null);
  const states = useRef(new ViewStates());
  const camera = useRef<CameraState | null>(null);
  /**
   * The graph whose first frame was announced (a new renderer, for a new colour scheme or a self-loop, does
   * not announce it again).
   */
  const framed = useRef<KnowledgeGraph | null>(null);
  const frameListeners = useRef(new Set<() => void>());
  const latest = useRef({ graph, view, labels, pointer, onFirstFrame });
  latest.current = { graph, view, labels, pointer, onFirstFrame };
  const scheme = useComputedColorScheme('light');
  const loops = (graph?.selfLoopCount ?? 0) > 0;

  const show = (renderer: CanvasRenderer, next: KnowledgeGraph | null) => {
    if (next && next !== framed.current) {
      renderer.once('afterRender', () => {
        framed.current = next;
        latest.current.onFirstFrame?.();
      });
    }
    states.current.reset();
    renderer.setSettings({ ...largeGraphSettings(next), renderLabels: latest.current.labels });
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
        enableEdgeEvents: true,
        renderEdgeLabels: true,
        minCameraRatio: 0.02,
        maxCameraRatio: 8,
      },
      styles: canvasStyles(scheme),
      primitives: { edges: edgePrimitives(loops) },
      customNodeState: nodeViewDefaults,
      customEdgeState: edgeViewDefaults,
    });
    if (camera.current) renderer.getCamera().setState(camera.current);
    const unwire = wirePointer(renderer, element, () => latest.current.pointer);
    renderer.on('afterRender', () => frameListeners.current.forEach((listener) => listener()));
    const cameraCaptor = renderer.getCamera();
    cameraCaptor.on('animationStart', () => element.setAttribute('data-camera', 'moving'));
    cameraCaptor.on('animationEnd', () => element.setAttribute('data-camera', 'still'));
    sigma.current = renderer;
    show(renderer, latest.current.graph);
    // Sigma sizes its drawing to the container only on a window resize; the layout around it changes more often.
    const resized = new ResizeObserver(() => renderer.scheduleRender());
    resized.observe(element);
    return () => {
      unwire();
      resized.disconnect();
      camera.current = renderer.getCamera().getState();
      renderer.kill();
      sigma.current = null;
    };
  }, [scheme, loops]);

  useEffect(() => {
    const renderer = sigma.current;
    if (renderer && renderer.getGraph() !== graph) show(renderer, graph);
  }, [graph]);

  useEffect(() => {
    const renderer = sigma.current;
    if (renderer && graph && renderer.getGraph() === graph) states.current.apply(graph, view, renderer);
  }, [view]);

  useEffect(() => {
    sigma.current?.setSetting('renderLabels', labels);
  }, [labels]);

  useImperativeHandle(ref, () => canvasHandle(() => sigma.current, frameListeners.current), []);

  /** Shift+arrows pan and +/- zoom; everything else (plain arrows walk the entities) is the screen's. */
  const keyDown = (event: KeyboardEvent) => {
    const camera = sigma.current?.getCamera();
    if (!camera) return;
    const step = panStep * camera.ratio;
    const pans: Record<string, () => void> = {
      ArrowLeft: () => camera.setState({ x: camera.x - step }),
      ArrowRight: () => camera.setState({ x: camera.x + step }),
      ArrowUp: () => camera.setState({ y: camera.y + step }),
      ArrowDown: () => camera.setState({ y: camera.y - step }),
    };
    const zooms: Record<string, () => void> = {
      '+': () => void camera.zoomIn({ duration: duration() }),
      '=': () => void camera.zoomIn({ duration: duration() }),
      '-': () => void camera.zoomOut({ duration: duration() }),
    };
    const move = (event.shiftKey ? pans[event.key] : undefined) ?? zooms[event.key];
    if (!move) return onKeyDown(event);
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
      onKeyDown={keyDown}
      data-testid="graph-canvas"
      data-camera="still"
    />
  );
});
