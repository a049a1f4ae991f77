import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { api } from '../../lib/api.ts';
import { chunked, type BulkJob } from './use-bulk-job.ts';

/** Operations per queue task: small enough that the progress moves, large enough to stay few tasks. */
const operationsPerTask = 2_000;

export interface GraphOperation {
  operation: 'update' | 'delete';
  data: { id: string } & Record<string, unknown>;
}

/**
 * Queues a bulk change of nodes or edges as batch tasks on the operations lane (the worker runs each
 * operation on its own and reports it), and returns the job that follows them.
 */
export async function queueGraphBatch(
  kind: 'nodes' | 'edges',
  operations: GraphOperation[],
  title: string,
): Promise<BulkJob> {
  const endpoint = kind === 'nodes' ? nodeEndpoints.batch : edgeEndpoints.batch;
  const taskIds: string[] = [];
  for (const part of chunked(operations, operationsPerTask))
    taskIds.push((await api.call(endpoint, { body: { operations: part } })).task_id);
  return { title, taskIds };
}
