import type { KnowledgeGraph } from '../../lib/graph-model.ts';

export interface CanvasView {
  /** Nodes to emphasise (a highlight, a path); the rest fade. Empty: nothing fades. */
  focus: Set<string>;
  /** Edges drawn strong (a path). */
  pathEdges: Set<string>;
  hiddenTemplates: Set<string>;
  /** Entities hidden one by one, or inside a collapsed cluster. */
  hiddenNodes: Set<string>;
  selected: string | null;
}

export interface NodeFlags {
  isHidden: boolean;
  isHighlighted: boolean;
  isFaded: boolean;
  isSelected: boolean;
}

export interface EdgeFlags {
  isHidden: boolean;
  isFaded: boolean;
  isOnPath: boolean;
  /** The edge touches the selected node: its relationship is written beside it. */
  isBesideSelected: boolean;
}

/** One item's flags packed in a number, so a view change compares numbers, not objects. */
const nodeBits = ['isHidden', 'isHighlighted', 'isFaded', 'isSelected'] as const;
const edgeBits = ['isHidden', 'isFaded', 'isOnPath', 'isBesideSelected'] as const;

const isHidden = (graph: KnowledgeGraph, view: CanvasView, node: string) =>
  view.hiddenNodes.has(node) || view.hiddenTemplates.has(graph.getNodeAttribute(node, 'templateId'));

function nodeMask(graph: KnowledgeGraph, view: CanvasView, node: string): number {
  if (isHidden(graph, view, node)) return 1;
  if (node === view.selected) return 8;
  if (view.focus.size === 0) return 0;
  return view.focus.has(node) ? 2 : 4;
}

function edgeMask(graph: KnowledgeGraph, view: CanvasView, edge: string, source: string, target: string): number {
  if (isHidden(graph, view, source) || isHidden(graph, view, target)) return 1;
  const beside = view.selected === source || view.selected === target ? 8 : 0;
  if (view.pathEdges.has(edge)) return 4 | beside;
  return (view.focus.size > 0 && !(view.focus.has(source) && view.focus.has(target)) ? 2 : 0) | beside;
}

function unpack<K extends string>(bits: readonly K[], mask: number): Record<K, boolean> {
  return Object.fromEntries(bits.map((bit, index) => [bit, (mask & (1 << index)) !== 0])) as Record<K, boolean>;
}

export interface StateTarget {
  setNodesState(keys: string[], state: NodeFlags): unknown;
  setEdgesState(keys: string[], state: EdgeFlags): unknown;
}

/**
 * Keeps the renderer's item states in line with the view: each `apply` computes every item's flags, and
 * hands the renderer only the items whose flags changed since the last call, grouped by their new flags.
 */
export class ViewStates {
  private nodes = new Map<string, number>();
  private edges = new Map<string, number>();

  /** Forget what was applied (a new graph or renderer starts with every item at its defaults). */
  reset(): void {
    this.nodes.clear();
    this.edges.clear();
  }

  apply(graph: KnowledgeGraph, view: CanvasView, renderer: StateTarget): void {
    const nodeChanges = new Map<number, string[]>();
    graph.forEachNode((node) => {
      const mask = nodeMask(graph, view, node);
      if ((this.nodes.get(node) ?? 0) === mask) return;
      this.nodes.set(node, mask);
      const group = nodeChanges.get(mask);
      if (group) group.push(node);
      else nodeChanges.set(mask, [node]);
    });
    const edgeChanges = new Map<number, string[]>();
    graph.forEachEdge((edge, _, source, target) => {
      const mask = edgeMask(graph, view, edge, source, target);
      if ((this.edges.get(edge) ?? 0) === mask) return;
      this.edges.set(edge, mask);
      const group = edgeChanges.get(mask);
      if (group) group.push(edge);
      else edgeChanges.set(mask, [edge]);
    });
    for (const [mask, keys] of nodeChanges) renderer.setNodesState(keys, unpack(nodeBits, mask));
    for (const [mask, keys] of edgeChanges) renderer.setEdgesState(keys, unpack(edgeBits, mask));
  }
}
