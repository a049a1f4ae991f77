import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Skeleton, Stack } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { messageOf } from '../../lib/api.ts';
import { JsonSchemaFields, schemaDefaults } from '../../components/JsonSchemaFields.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** Asks for the inputs the workflow declares, runs it and opens the execution. */
export function RunWorkflowModal({ workflowId, onClose }: { workflowId: string | null; onClose: () => void }) {
  const runWorkflow = useAction(workflowEndpoints.run);
  const workflow = useEndpoint(workflowEndpoints.get, workflowId ? { params: { workflow_id: workflowId } } : null);
  const [inputs, setInputs] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    setInputs(schemaDefaults(workflow.data?.input_schema));
    setError(null);
  }, [workflow.data]);

  async function run(event: FormEvent) {
    event.preventDefault();
    if (!workflowId) return;
    setBusy(true);
    setError(null);
    try {
      const queued = await runWorkflow.run({ params: { workflow_id: workflowId }, body: { inputs } });
      onClose();
      navigate(`/automation/executions/${queued.execution_id}`);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const ready = workflow.data && workflow.data.id === workflowId;
  return (
    <Modal
      opened={workflowId !== null}
      onClose={onClose}
      title={`Run “${ready ? workflow.data?.name : '…'}”`}
      size="lg"
    >
      <form onSubmit={(event) => void run(event)}>
        <Stack gap="sm">
          {workflow.error && (
            <Alert color="red" role="alert">
              {workflow.error}
            </Alert>
          )}
          {!ready && !workflow.error && <Skeleton h={120} />}
          {ready && (
            <JsonSchemaFields
              key={workflowId}
              schema={workflow.data?.input_schema}
              value={inputs}
              onChange={setInputs}
            />
          )}
          {error && (
            <Alert color="red" title="The workflow did not start" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!ready}>
              Run
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
