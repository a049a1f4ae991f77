import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, JsonInput, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { triggerEndpoints } from '@rhizome/contracts/api/triggers';
import { messageOf } from '../../lib/api.ts';
import { isPlainObject, parseJsonField, type TriggerSummary } from './automation-data.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';

/** Fires a trigger by hand with an event payload, and says whether its workflow started (the filters may not match). */
export function FireTriggerModal({ trigger, onClose }: { trigger: TriggerSummary | null; onClose: () => void }) {
  const fireTrigger = useAction(triggerEndpoints.fire, {
    refreshes: [
      { tag: triggerEndpoints.stats.tag, endpoint: triggerEndpoints.stats },
      { tag: 'workflows', endpoint: workflowEndpoints.allExecutions },
    ],
  });
  const [payload, setPayload] = useState('{}');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ResponseOf<typeof triggerEndpoints.fire> | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setPayload('{}');
    setError(null);
    setResult(null);
  }, [trigger]);

  async function fire(event: FormEvent) {
    event.preventDefault();
    if (!trigger) return;
    const parsed = parseJsonField(payload, 'the event', {});
    if ('error' in parsed || !isPlainObject(parsed.value))
      return setError('error' in parsed ? parsed.error : 'The event is a JSON object');
    setBusy(true);
    setError(null);
    try {
      setResult(await fireTrigger.run({ params: { trigger_id: trigger.id }, body: parsed.value }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={trigger !== null} onClose={onClose} title={`Fire “${trigger?.name ?? ''}” now`} size="lg">
      <form onSubmit={(event) => void fire(event)}>
        <Stack gap="sm">
          <Text fz="sm">
            The event is matched against the trigger’s filters; when it matches, the workflow runs with the event’s
            fields (and the trigger’s extra inputs) as its inputs.
          </Text>
          <JsonInput
            label="Event"
            value={payload}
            onChange={setPayload}
            autosize
            minRows={3}
            maxRows={12}
            validationError="Not valid JSON"
            error={error}
            data-autofocus
          />
          {result && (
            <Alert
              color={result.fired ? 'teal' : 'yellow'}
              title={result.fired ? 'The workflow started' : 'Nothing started'}
              role="status"
            >
              {result.message}
              {result.execution_id && (
                <Anchor
                  component={Link}
                  to={`/automation/executions/${result.execution_id}`}
                  display="block"
                  mt={4}
                  fz="sm"
                  c="inherit"
                  underline="always"
                  fw={600}
                >
                  Open the run
                </Anchor>
              )}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
            <Button type="submit" loading={busy}>
              Fire
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
