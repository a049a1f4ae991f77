import { Kbd, Modal, Table } from '@mantine/core';

/** Every key the canvas answers while it has the focus. */
export const canvasShortcuts: [keys: string[], what: string][] = [
  [['←', '↑', '→', '↓'], 'Select the nearest entity that way'],
  [['G'], 'Go to an entity by name'],
  [['Enter'], 'Open the menu of the selected entity (or of the canvas); while linking, link to it'],
  [['Shift', 'F10'], 'The same menu (or the Menu key)'],
  [['N'], 'Create an entity in the middle of the view'],
  [['L'], 'Link the selected entity to another'],
  [['D'], 'Duplicate the selected entity'],
  [['Delete'], 'Delete the selected entity'],
  [['F'], 'Fit the whole graph in view'],
  [['Shift', '←'], 'Pan (Shift with any arrow)'],
  [['+', '-'], 'Zoom in and out'],
  [['Esc'], 'Cancel a link, or clear the selection'],
  [['?'], 'Show these shortcuts'],
];

export function ShortcutsSheet({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Canvas shortcuts" size="lg">
      <Table aria-label="Canvas shortcuts" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Keys</Table.Th>
            <Table.Th>What they do</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {canvasShortcuts.map(([keys, what]) => (
            <Table.Tr key={what}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && (keys[0] === 'Shift' ? ' + ' : ' ')}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
