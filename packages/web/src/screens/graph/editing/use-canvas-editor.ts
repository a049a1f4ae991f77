import { useState, type KeyboardEvent, type RefObject } from 'react';
import { notifications } from '@mantine/notifications';
import { messageOf } from '../../../lib/api.ts';
import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import type { CanvasHandle, CanvasTarget, Direction, Point } from '../GraphCanvas.tsx';
import type { useGraphWalk } from '../use-graph-walk.ts';
import type { MenuCommands, MenuRequest } from './CanvasMenu.tsx';
import type { LinkRequest } from './LinkModal.tsx';
import type { CanvasEdits } from './use-canvas-edits.ts';

export type CanvasDialog =
  | { kind: 'create'; point: Point }
  | { kind: 'link'; request: LinkRequest }
  | { kind: 'edge'; id: string }
  | { kind: 'delete-entity'; id: string }
  | { kind: 'delete-edge'; id: string }
  | { kind: 'goto' }
  | { kind: 'shortcuts' };

const arrows: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };
/** Where a duplicate lands: this far (in pixels) below and right of the original. */
const duplicateOffset = 36;

/**
 * What editing on the canvas is at any moment: the open menu, the open dialog, an entity waiting for the
 * target of its link; and the commands that change them, from the menu, the pointer or the keyboard.
 */
export function useCanvasEditor({
  canvas,
  graph,
  walk,
  edits,
  isShown,
  openNode,
}: {
  canvas: RefObject<CanvasHandle | null>;
  graph: KnowledgeGraph | undefined;
  walk: ReturnType<typeof useGraphWalk>;
  edits: CanvasEdits;
  /** Whether an entity is drawn (not hidden): the keyboard only walks to those. */
  isShown: (id: string) => boolean;
  openNode: (id: string) => void;
}) {
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const [dialog, setDialog] = useState<CanvasDialog | null>(null);
  const [linking, setLinking] = useState<string | null>(null);
  const selected = walk.selected && graph?.hasNode(walk.selected) ? walk.selected : null;
  const failed = (title: string) => (error: unknown) =>
    notifications.show({ color: 'red', title, message: messageOf(error) });

  const duplicate = (id: string) => {
    const at = canvas.current?.viewportOf(id);
    const point = canvas.current?.graphPointAt(
      at ? { x: at.x + duplicateOffset, y: at.y + duplicateOffset } : undefined,
    );
    if (!point) return;
    void edits
      .duplicate(id, point)
      .then((copy) => {
        walk.select(copy.id, false);
        notifications.show({ color: 'teal', message: `${copy.label} created.` });
      })
      .catch(failed('Could not duplicate'));
  };

  const copyId = (id: string) =>
    void navigator.clipboard
      .writeText(id)
      .then(() => notifications.show({ message: `Copied the id ${id}.` }))
      .catch(() =>
        notifications.show({ color: 'yellow', message: `The browser refused the clipboard; the id is ${id}.` }),
      );

  const commands: MenuCommands = {
    createHere: (point) => setDialog({ kind: 'create', point }),
    edit: openNode,
    linkFrom: setLinking,
    expand: (id) => void walk.expand(id),
    hide: walk.hide,
    duplicate,
    copyId,
    remove: (id) => setDialog({ kind: 'delete-entity', id }),
    editEdge: (id) => setDialog({ kind: 'edge', id }),
    removeEdge: (id) => setDialog({ kind: 'delete-edge', id }),
  };

  /** The menu of the selected entity beside it, or of the canvas in its middle. */
  const openMenuHere = () => {
    const handle = canvas.current;
    if (!handle) return;
    const at = selected ? handle.viewportOf(selected) : null;
    const target: CanvasTarget =
      selected && at ? { kind: 'node', id: selected } : { kind: 'stage', point: handle.graphPointAt() };
    setMenu({ target, at: at ?? handle.middle() });
  };

  /** Ends a pending link at `target`: the link's dialog opens on the two of them. */
  const linkTo = (from: string, target: string) => {
    setDialog({ kind: 'link', request: { from, to: target } });
    setLinking(null);
  };

  const walkTowards = (direction: Direction) => {
    const next = canvas.current?.nearest(selected, direction, isShown);
    if (!next) return;
    walk.select(next, false);
    canvas.current?.reveal(next);
  };

  const keys: Record<string, (() => void) | undefined> = {
    Enter: linking && selected && selected !== linking ? () => linkTo(linking, selected) : openMenuHere,
    ContextMenu: openMenuHere,
    Delete: selected ? () => setDialog({ kind: 'delete-entity', id: selected }) : undefined,
    Backspace: selected ? () => setDialog({ kind: 'delete-entity', id: selected }) : undefined,
    f: () => canvas.current?.fit(),
    d: selected ? () => duplicate(selected) : undefined,
    l: selected ? () => setDialog({ kind: 'link', request: { from: selected, to: null } }) : undefined,
    n: () => canvas.current && setDialog({ kind: 'create', point: canvas.current.graphPointAt() }),
    g: () => setDialog({ kind: 'goto' }),
    '?': () => setDialog({ kind: 'shortcuts' }),
    Escape: () => (linking ? setLinking(null) : walk.select(null)),
  };

  /** The canvas's keys (only while it has the focus itself: a field or button inside keeps its own). */
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget || event.ctrlKey || event.metaKey || event.altKey) return;
    const direction = arrows[event.key];
    const run =
      event.key === 'F10' && event.shiftKey
        ? openMenuHere
        : direction
          ? () => walkTowards(direction)
          : keys[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!run) return;
    event.preventDefault();
    run();
  };

  /** A click on an entity: the target of the pending link, else the new selection. */
  const onSelect = (id: string) => {
    if (linking && linking !== id) return linkTo(linking, id);
    walk.select(id, false);
  };

  return {
    menu,
    closeMenu: () => setMenu(null),
    openMenu: (target: CanvasTarget, at: Point) => setMenu({ target, at }),
    openMenuHere,
    commands,
    dialog,
    setDialog,
    /**
     * Closes the dialog and gives the focus back to the canvas: the menu item that opened the dialog is gone
     * (the dialog's own return of the focus finds nothing), and the keyboard carries on from the canvas.
     */
    closeDialog: () => {
      setDialog(null);
      canvas.current?.focus();
    },
    linking,
    cancelLinking: () => setLinking(null),
    onSelect,
    onLinkDrag: (from: string, to: string) => setDialog({ kind: 'link', request: { from, to } }),
    onKeyDown,
  };
}

export type CanvasEditor = ReturnType<typeof useCanvasEditor>;
