import { Conflict } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import type { Automation } from '../automation.ts';
import { startExecution } from '../workflows/run.ts';
import { executionInputs, matchFilters } from './matching.ts';
import { requireTriggerRow, toTrigger } from './repo.ts';

export interface FireOutcome {
  trigger_id: string;
  fired: boolean;
  execution_id: string | null;
  task_id: string | null;
  status: 'queued' | 'skipped';
  message: string;
}

/**
 * POST /triggers/{id}/fire: the trigger's event arrives from outside (a webhook), with `payload` as
 * its payload. The trigger's filters apply as to any event: a payload they do not match starts nothing
 * and says why. A disabled trigger or an inactive workflow is a 409, inputs its workflow's
 * input_schema refuses a 422, both before anything is queued.
 */
export async function fireTrigger(
  db: Db,
  database: string,
  automation: Pick<Automation, 'run'>,
  triggerId: string,
  payload: Record<string, unknown>,
): Promise<FireOutcome> {
  const trigger = toTrigger(await requireTriggerRow(db, triggerId));
  if (!trigger.enabled) throw new Conflict(`trigger '${triggerId}' is disabled`, { trigger_id: triggerId });
  const verdict = matchFilters(trigger.filters, payload);
  if (!verdict.matches) {
    const why =
      verdict.absentKey === undefined
        ? "does not match the trigger's filters"
        : `lacks the filter key '${verdict.absentKey}'`;
    return {
      trigger_id: triggerId,
      fired: false,
      execution_id: null,
      task_id: null,
      status: 'skipped',
      message: `The payload ${why}: nothing was started`,
    };
  }
  const inputs = executionInputs(payload, trigger.workflow_inputs);
  const queued = await startExecution(db, database, automation, trigger.workflow_id, inputs, {
    triggerId,
    inputsLoc: ['body'],
  });
  return {
    trigger_id: triggerId,
    fired: true,
    execution_id: queued.execution_id,
    task_id: queued.task_id,
    status: 'queued',
    message: queued.message,
  };
}
