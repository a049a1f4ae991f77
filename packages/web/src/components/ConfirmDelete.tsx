import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

/** Asks before something is deleted: what goes with it, then Keep (the safe choice, on the left) or Delete. */
export function ConfirmDelete({
  opened,
  title,
  onKeep,
  onDelete,
  keepLabel = 'Keep',
  deleteLabel = 'Delete',
  busy,
  disabled,
  children,
}: {
  opened: boolean;
  title: string;
  onKeep: () => void;
  onDelete: () => void;
  keepLabel?: string;
  deleteLabel?: ReactNode;
  busy?: boolean;
  disabled?: boolean;
  /** What deleting removes; text is set as the modal's paragraph. */
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onKeep} title={title}>
      {typeof children === 'string' ? <Text fz="sm">{children}</Text> : children}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onKeep}>
          {keepLabel}
        </Button>
        <Button color="red" loading={busy} disabled={disabled} onClick={onDelete}>
          {deleteLabel}
        </Button>
      </Group>
    </Modal>
  );
}
