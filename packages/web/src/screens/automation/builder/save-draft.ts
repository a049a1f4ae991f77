import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { api } from '../../../lib/api.ts';
import { planSave, type SaveOperation } from './save-plan.ts';
import type { Draft } from './workflow-draft.ts';

function perform(workflowId: string, operation: SaveOperation): Promise<unknown> {
  const workflow_id = workflowId;
  switch (operation.kind) {
    case 'clear':
      return api.call(workflowEndpoints.updateStep, {
        params: { workflow_id, step_id: operation.id },
        body: { depends_on: [], configuration: {}, condition: null },
      });
    case 'remove':
      return api.call(workflowEndpoints.removeStep, { params: { workflow_id, step_id: operation.id } });
    case 'add':
      return api.call(workflowEndpoints.addStep, { params: { workflow_id }, body: operation.step });
    case 'update':
      return api.call(workflowEndpoints.updateStep, {
        params: { workflow_id, step_id: operation.id },
        body: operation.changes,
      });
    case 'reorder':
      return api.call(workflowEndpoints.reorderSteps, {
        params: { workflow_id },
        body: { step_order: operation.order },
      });
  }
}

/** Writes the draft over the saved steps, one call after another (see planSave); stops at the first refusal. */
export async function saveDraft(workflowId: string, saved: Draft, draft: Draft): Promise<number> {
  const operations = planSave(saved, draft);
  for (const operation of operations) await perform(workflowId, operation);
  return operations.length;
}
