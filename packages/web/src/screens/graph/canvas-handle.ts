import type { NodeDisplayData } from 'sigma/types';
import type { CanvasRenderer } from './canvas-renderer.ts';

export interface Point {
  x: number;
  y: number;
}
export type Direction = 'left' | 'right' | 'up' | 'down';
/** What a right-click (or the keyboard's menu key) is about. */
export type CanvasTarget =
  { kind: 'stage'; point: Point } | { kind: 'node'; id: string } | { kind: 'edge'; id: string };

/** What the screen can ask of the canvas: camera moves, and where entities are drawn. */
export interface CanvasHandle {
  flyTo(id: string): void;
  fit(ids?: string[]): void;
  /** Frames the area the graph positions span (what lies around the entities, like the clusters' discs). */
  fitArea(points: Point[]): void;
  zoom(direction: 1 | -1): void;
  /** Pans to the entity when it is outside the view, keeping the zoom. */
  reveal(id: string): void;
  /** Where an entity is drawn, in pixels from the canvas's top left (null when it is not drawn). */
  viewportOf(id: string): Point | null;
  /** Where a graph position is drawn, in pixels from the canvas's top left. */
  viewportAt(point: Point): Point | null;
  /** The graph position under a point of the canvas (pixels from its top left); the middle when none is given. */
  graphPointAt(at?: Point): Point;
  /** The middle of the canvas, in pixels from its top left. */
  middle(): Point;
  /** The entity drawn nearest in a direction from another (or to the middle), among those `eligible`. */
  nearest(from: string | null, direction: Direction, eligible: (id: string) => boolean): string | null;
  /** Hands the keyboard focus to the canvas. */
  focus(): void;
  /** Calls `listener` after every frame drawn; returns the way to stop. */
  onFrame(listener: () => void): () => void;
}

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
/** How long a camera move takes: none when the person asked for reduced motion. */
export const duration = () => (reducedMotion() ? 0 : 450);
/** How close to the edge of the view an entity may be before revealing it pans. */
const revealMargin = 40;

/** How far along (positive) and across a direction a point lies from another, in screen pixels (y grows down). */
function alongAcross(direction: Direction, dx: number, dy: number): [number, number] {
  if (direction === 'left') return [-dx, dy];
  if (direction === 'right') return [dx, dy];
  if (direction === 'up') return [-dy, dx];
  return [dy, dx];
}

/**
 * Moves the camera onto the box around `points` (in the renderer's framed coordinates), its ratio kept
 * between 0.08 (the closest a fit zooms in) and `widest`.
 */
function frame(renderer: CanvasRenderer, points: Point[], widest: number): void {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const x = (Math.max(...xs) + Math.min(...xs)) / 2;
  const y = (Math.max(...ys) + Math.min(...ys)) / 2;
  void renderer
    .getCamera()
    .animate({ x, y, ratio: Math.min(widest, Math.max(0.08, span * 1.4)) }, { duration: duration() });
}

/** The handle over whichever renderer is current (a new colour scheme makes a new one). */
export function canvasHandle(current: () => CanvasRenderer | null, frameListeners: Set<() => void>): CanvasHandle {
  const viewportOf = (id: string): Point | null => {
    const renderer = current();
    const display = renderer?.getNodeDisplayData(id);
    return renderer && display ? renderer.framedGraphToViewport(display) : null;
  };
  const middle = (): Point => {
    const { width, height } = current()?.getDimensions() ?? { width: 0, height: 0 };
    return { x: width / 2, y: height / 2 };
  };
  return {
    flyTo(id) {
      const renderer = current();
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
      const renderer = current();
      if (!renderer) return;
      const points = (ids ?? [])
        .map((id) => renderer.getNodeDisplayData(id))
        .filter((display): display is NodeDisplayData => display !== undefined);
      if (points.length === 0) {
        void renderer.getCamera().animate({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }, { duration: duration() });
        return;
      }
      frame(renderer, points, 1);
    },
    fitArea(points) {
      const renderer = current();
      if (renderer && points.length)
        frame(
          renderer,
          points.map((point) => renderer.viewportToFramedGraph(renderer.graphToViewport(point))),
          Number.POSITIVE_INFINITY,
        );
    },
    zoom(direction) {
      const camera = current()?.getCamera();
      if (!camera) return;
      void (direction > 0 ? camera.zoomIn({ duration: duration() }) : camera.zoomOut({ duration: duration() }));
    },
    reveal(id) {
      const renderer = current();
      const display = renderer?.getNodeDisplayData(id);
      if (!renderer || !display) return;
      const at = renderer.framedGraphToViewport(display);
      const { width, height } = renderer.getDimensions();
      const inside =
        at.x >= revealMargin && at.y >= revealMargin && at.x <= width - revealMargin && at.y <= height - revealMargin;
      if (!inside) void renderer.getCamera().animate({ x: display.x, y: display.y }, { duration: duration() });
    },
    viewportOf,
    viewportAt(point) {
      return current()?.graphToViewport(point) ?? null;
    },
    graphPointAt(at) {
      return current()?.viewportToGraph(at ?? middle()) ?? { x: 0, y: 0 };
    },
    middle,
    nearest(from, direction, eligible) {
      const shown = current()?.getGraph();
      const origin = from ? viewportOf(from) : middle();
      if (!shown || !origin) return null;
      let best: string | null = null;
      let bestScore = Infinity;
      shown.forEachNode((id) => {
        if (id === from || !eligible(id)) return;
        const at = viewportOf(id);
        if (!at) return;
        const [along, across] = alongAcross(direction, at.x - origin.x, at.y - origin.y);
        // From the middle any direction will do; from an entity, only what lies that way (within a wide cone).
        const inCone = along > 0 && Math.abs(across) <= along * 2;
        const score = !from ? Math.hypot(along, across) : inCone ? along + Math.abs(across) * 2 : Infinity;
        if (score < bestScore) {
          best = id;
          bestScore = score;
        }
      });
      return best;
    },
    focus() {
      current()?.getContainer().focus();
    },
    onFrame(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
  };
}
