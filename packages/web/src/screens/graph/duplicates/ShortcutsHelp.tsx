import { Group, Kbd, Modal, Table } from '@mantine/core';
import { queueShortcuts } from './use-queue-shortcuts.ts';

/** The list of the queue's keyboard shortcuts, opened with `?`. */
export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="md">
      <Table verticalSpacing={6} fz="sm" aria-label="Keyboard shortcuts of the review queue">
        <Table.Tbody>
          {queueShortcuts.map(({ keys, description }) => (
            <Table.Tr key={description}>
              <Table.Th w={90} scope="row">
                <Group gap={4} wrap="nowrap">
                  {keys.map((key) => (
                    <Kbd key={key}>{key}</Kbd>
                  ))}
                </Group>
              </Table.Th>
              <Table.Td>{description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
