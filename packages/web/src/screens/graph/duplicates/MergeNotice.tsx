import { Alert, Button, Group, Kbd, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import type { QueueMerge } from './use-duplicate-queue.ts';

/** What the last merge of the queue did, with the way back. */
export function MergeNotice({
  merge,
  undoing,
  onUndo,
  onClose,
}: {
  merge: QueueMerge;
  undoing: boolean;
  onUndo: () => void;
  onClose: () => void;
}) {
  return (
    <Alert
      color="teal"
      variant="light"
      role="status"
      withCloseButton
      closeButtonLabel="Close the merge notice"
      onClose={onClose}
      data-testid="merge-notice"
    >
      <Group justify="space-between" gap="xs">
        <Text fz="sm" style={{ overflowWrap: 'anywhere', minWidth: 0, flex: '1 1 240px' }}>
          Merged “{merge.mergedLabel}” into “{merge.keptLabel}”.
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconArrowBackUp size={14} />}
          rightSection={
            <Kbd size="xs" aria-hidden>
              u
            </Kbd>
          }
          aria-keyshortcuts="u"
          loading={undoing}
          onClick={onUndo}
        >
          Undo
        </Button>
      </Group>
    </Alert>
  );
}
