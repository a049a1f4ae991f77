import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { JsonSchemaFields, schemaDefaults } from '../../../components/JsonSchemaFields.tsx';
import { messageOf } from '../../../lib/api.ts';

/** Asks for sample inputs and starts a test run; unsaved changes are saved first, so the run is of what is shown. */
export function TestRunModal({
  opened,
  inputSchema,
  unsaved,
  onRun,
  onClose,
}: {
  opened: boolean;
  inputSchema: unknown;
  unsaved: boolean;
  onRun: (inputs: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}) {
  const [inputs, setInputs] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setInputs((current) => ({ ...schemaDefaults(inputSchema), ...current }));
      setError(null);
    }
  }, [opened, inputSchema]);

  async function run(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onRun(inputs);
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title="Test run" size="lg">
      <form onSubmit={(event) => void run(event)}>
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            The workflow runs for real with these sample inputs; each step shows its output on the canvas.
            {unsaved ? ' Your changes are saved first.' : ''}
          </Text>
          <JsonSchemaFields schema={inputSchema} value={inputs} onChange={setInputs} />
          {error && (
            <Alert color="red" title="The test run did not start" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {unsaved ? 'Save and run the test' : 'Run the test'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
