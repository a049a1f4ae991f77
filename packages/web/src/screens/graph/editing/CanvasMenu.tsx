import type { ReactNode } from 'react';
import { Menu } from '@mantine/core';
import {
  IconArrowsSplit,
  IconCopy,
  IconEyeOff,
  IconId,
  IconLink,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import type { CanvasTarget, Point } from '../GraphCanvas.tsx';

/** The red of a destructive item, the shade the app's styles keep at AA contrast in each scheme (Mantine's own is too pale on white). */
const dangerText = 'var(--mantine-color-red-light-color)';

export interface MenuRequest {
  target: CanvasTarget;
  /** Where the menu opens, in pixels from the canvas's top left. */
  at: Point;
}

/** The commands the menu offers; each closes the menu first. */
export interface MenuCommands {
  createHere: (point: Point) => void;
  edit: (id: string) => void;
  linkFrom: (id: string) => void;
  expand: (id: string) => void;
  hide: (id: string) => void;
  duplicate: (id: string) => void;
  copyId: (id: string) => void;
  remove: (id: string) => void;
  editEdge: (id: string) => void;
  removeEdge: (id: string) => void;
}

/**
 * The canvas's context menu, opened by a right-click or from the keyboard at the selected entity: on the
 * empty canvas, create an entity there; on an entity, its actions; on a relationship, edit or delete it.
 * Its items are reached with the arrow keys and Escape closes it, as in any menu; the first takes the focus.
 */
export function CanvasMenu({
  request,
  title,
  commands,
  onClose,
}: {
  request: MenuRequest | null;
  /** The item the menu is about: the menu's accessible name. */
  title: string;
  commands: MenuCommands;
  onClose: () => void;
}) {
  const item = (label: string, icon: ReactNode, run: () => void, destructive?: boolean) => (
    <Menu.Item key={label} leftSection={icon} color={destructive ? dangerText : undefined} onClick={run}>
      {label}
    </Menu.Item>
  );
  const target = request?.target;
  const items =
    target?.kind === 'stage'
      ? [item('Create entity here', <IconPlus size={14} />, () => commands.createHere(target.point))]
      : target?.kind === 'node'
        ? [
            item('Edit', <IconPencil size={14} />, () => commands.edit(target.id)),
            item('Link from here', <IconLink size={14} />, () => commands.linkFrom(target.id)),
            item('Expand neighbours', <IconArrowsSplit size={14} />, () => commands.expand(target.id)),
            item('Hide', <IconEyeOff size={14} />, () => commands.hide(target.id)),
            item('Duplicate', <IconCopy size={14} />, () => commands.duplicate(target.id)),
            item('Copy id', <IconId size={14} />, () => commands.copyId(target.id)),
            item('Delete', <IconTrash size={14} />, () => commands.remove(target.id), true),
          ]
        : target?.kind === 'edge'
          ? [
              item('Edit relationship', <IconPencil size={14} />, () => commands.editEdge(target.id)),
              item('Delete relationship', <IconTrash size={14} />, () => commands.removeEdge(target.id), true),
            ]
          : [];
  return (
    <Menu opened={request !== null} onChange={(opened) => !opened && onClose()} position="bottom-start" withinPortal>
      <Menu.Target>
        <div
          aria-hidden
          style={{ position: 'absolute', left: request?.at.x ?? 0, top: request?.at.y ?? 0, width: 1, height: 1 }}
        />
      </Menu.Target>
      <Menu.Dropdown aria-label={title} data-testid="canvas-menu">
        {items}
      </Menu.Dropdown>
    </Menu>
  );
}
