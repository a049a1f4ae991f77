import FA2Layout from 'graphology-layout-forceatlas2/worker';
import { inferSettings } from 'graphology-layout-forceatlas2';
import type { KnowledgeGraph } from '../../lib/graph-model.ts';

export interface LayoutRun {
  /** Resolves when the layout settled (or hit its time limit, or was stopped): true when it ran to its end. */
  done: Promise<boolean>;
  stop(): void;
}

/** How often movement is measured, and the average move (relative to the graph's extent) below which it has settled. */
const checkMs = 400;
const settledRatio = 0.0015;

/**
 * ForceAtlas2 in a web worker, on a copy of the graph: the worker moves the copy's nodes at its own pace,
 * and every `checkMs` the shown graph takes their positions in one update (a single redraw). Drawing each of
 * the worker's steps would keep the main thread busy and the page slow to answer input. It stops once the
 * average node moves less than a small fraction of the graph's extent between checks, or after `limitMs`.
 */
export function runLayout(graph: KnowledgeGraph, limitMs = 20_000): LayoutRun {
  const working = graph.copy();
  const layout = new FA2Layout(working, {
    settings: { ...inferSettings(working), barnesHutOptimize: working.order > 500, adjustSizes: false },
  });
  let finish: (ended: boolean) => void = () => undefined;
  const done = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  let previous = positions(working);
  const started = performance.now();
  let moving = false;
  const timer = window.setInterval(() => {
    const current = positions(working);
    const moved = averageMove(previous, current);
    previous = current;
    show(graph, working);
    // The worker needs a moment to start: no movement yet is not a settled layout.
    if (moved > 0) moving = true;
    if ((moving && moved < settledRatio * extent(current)) || performance.now() - started > limitMs) end(true);
  }, checkMs);
  const end = (ended: boolean) => {
    window.clearInterval(timer);
    layout.kill();
    show(graph, working);
    finish(ended);
  };
  layout.start();
  return { done, stop: () => end(false) };
}

/** Copies the working positions onto the shown graph (nodes added or removed meanwhile are left alone). */
function show(graph: KnowledgeGraph, working: KnowledgeGraph): void {
  graph.updateEachNodeAttributes(
    (node, attributes) => {
      if (!working.hasNode(node)) return attributes;
      const { x, y } = working.getNodeAttributes(node);
      return { ...attributes, x, y };
    },
    { attributes: ['x', 'y'] },
  );
}

function positions(graph: KnowledgeGraph): Float64Array {
  const values = new Float64Array(graph.order * 2);
  let index = 0;
  graph.forEachNode((_, { x, y }) => {
    values[index++] = x;
    values[index++] = y;
  });
  return values;
}

function averageMove(before: Float64Array, after: Float64Array): number {
  if (before.length !== after.length || after.length === 0) return Infinity;
  let total = 0;
  for (let index = 0; index < after.length; index += 2)
    total += Math.hypot(after[index] - before[index], after[index + 1] - before[index + 1]);
  return total / (after.length / 2);
}

function extent(values: Float64Array): number {
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (let index = 0; index < values.length; index += 2) {
    minX = Math.min(minX, values[index]);
    maxX = Math.max(maxX, values[index]);
    minY = Math.min(minY, values[index + 1]);
    maxY = Math.max(maxY, values[index + 1]);
  }
  return Math.max(maxX - minX, maxY - minY, 1);
}
