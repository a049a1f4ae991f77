import type { CanvasRenderer } from './canvas-renderer.ts';
import type { CanvasTarget, Point } from './canvas-handle.ts';

export interface PointerHandlers {
  onSelect: (id: string) => void;
  onMoved: (id: string) => void;
  onMenu: (target: CanvasTarget, at: Point) => void;
  onLinkDrag: (from: string, to: string) => void;
}

/**
 * The renderer's pointer events turned into the screen's: a click selects, a drag's end moves, a right-click
 * asks for a menu (the browser's own is kept away), and Shift+drag from a node to another links them (the
 * node itself does not move, nor the camera). `handlers` is read at each event, so it may change.
 */
export function wirePointer(
  renderer: CanvasRenderer,
  element: HTMLElement,
  handlers: () => PointerHandlers,
): () => void {
  renderer.on('clickNode', ({ node }) => handlers().onSelect(node));
  renderer.on('nodeDragEnd', ({ node }) => handlers().onMoved(node));
  renderer.on('rightClickNode', ({ node, event }) => handlers().onMenu({ kind: 'node', id: node }, event));
  renderer.on('rightClickEdge', ({ edge, event }) => handlers().onMenu({ kind: 'edge', id: edge }, event));
  renderer.on('rightClickStage', ({ event }) =>
    handlers().onMenu({ kind: 'stage', point: renderer.viewportToGraph(event) }, event),
  );
  let linkFrom: string | null = null;
  renderer.on('downNode', ({ node, event, preventSigmaDefault }) => {
    if (!(event.original as MouseEvent).shiftKey) return;
    linkFrom = node;
    preventSigmaDefault();
  });
  renderer.on('nodeDragStart', ({ preventSigmaDefault }) => {
    if (linkFrom) preventSigmaDefault();
  });
  renderer.on('upNode', ({ node }) => {
    if (linkFrom && linkFrom !== node) handlers().onLinkDrag(linkFrom, node);
    linkFrom = null;
  });
  renderer.on('upStage', () => (linkFrom = null));
  const noBrowserMenu = (event: MouseEvent) => event.preventDefault();
  element.addEventListener('contextmenu', noBrowserMenu);
  return () => element.removeEventListener('contextmenu', noBrowserMenu);
}
