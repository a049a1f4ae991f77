import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ReferenceField } from './ReferenceField.tsx';
import { conditionFrom, conditionText, type DraftStep } from './workflow-draft.ts';

/**
 * A connection clicked on the canvas: the condition of the step it leads to (a step has one condition,
 * shown on every connection into it) and a way to delete the connection.
 */
export function ConnectionModal({
  source,
  target,
  references,
  onCondition,
  onDisconnect,
  onClose,
}: {
  source: DraftStep | undefined;
  target: DraftStep | undefined;
  references: string[];
  onCondition: (condition: unknown) => void;
  onDisconnect: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  useEffect(() => setText(conditionText(target?.condition)), [target]);
  const opened = Boolean(source && target);
  return (
    <Modal opened={opened} onClose={onClose} title={opened ? `${source?.name} → ${target?.name}` : ''} size="lg">
      <Stack gap="sm">
        <Text fz="sm">
          “{target?.name}” runs after “{source?.name}” has finished
          {target && target.depends_on.length > 1 ? ', and after the other steps it is connected from' : ''}.
        </Text>
        <ReferenceField
          label={`Run “${target?.name ?? ''}” only when`}
          description='Empty: always. A value judged true or false, e.g. {{steps.check.output.result}}, or JSON {"value": …, "operator": "equals", "compare_to": …}'
          value={text}
          references={references}
          onChange={setText}
        />
        <Group justify="space-between">
          <Button variant="default" color="red" onClick={onDisconnect}>
            Delete the connection
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => onCondition(conditionFrom(text))}>Keep the condition</Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
