import type { ChangeEventBody } from '@rhizome/contracts/api/events';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import type { Target } from './query-key.ts';

/** The queue operation that runs a workflow: its task events mean an execution changed. */
export const executeWorkflowTask = 'automation.execute_workflow';

/** Everything cached belongs to the database that was active (or to a stream that missed changes). */
export const everything = 'everything';

type Refresh = readonly Target[] | typeof everything;

const sourceReads: readonly Target[] = [{ tag: 'sources' }, { tag: 'counts' }, { tag: 'quality' }];

/**
 * The one map from a change on GET /events to the cached reads it makes stale. A screen never merges a
 * change by hand: it reads through `useEndpoint`, and the reads named here load again.
 */
export function refreshedBy(event: ChangeEventBody): Refresh {
  switch (event.type) {
    case 'ready':
    case 'database':
      return everything;
    case 'source':
    case 'source_deleted':
      return sourceReads;
    case 'lanes':
      return [{ tag: 'queue', endpoint: queueEndpoints.stats }];
    case 'task':
      return event.task.operation === executeWorkflowTask
        ? [
            { tag: 'queue' },
            { tag: 'workflows', endpoint: workflowEndpoints.execution },
            { tag: 'workflows', endpoint: workflowEndpoints.executions },
            { tag: 'workflows', endpoint: workflowEndpoints.allExecutions },
          ]
        : [{ tag: 'queue' }, { tag: 'processing' }];
  }
}
