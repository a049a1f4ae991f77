import type { BatchOutcome } from '@rhizome/contracts/api/batch';
import { nodeTagEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { api } from '../../lib/api.ts';
import type { RequestBulkJob } from './use-bulk-job.ts';

/** Entities per tagging request: one short statement each, so the progress moves and a reload loses little. */
export const nodesPerTagRequest = 1_000;

/** Tags one part of the job's entities with `options.tag_id`; each entity's outcome, indexed in the whole job. */
export async function sendNodeTagPart(job: RequestBulkJob, first: number, ids: string[]): Promise<BatchOutcome[]> {
  const answer = await api.call(nodeTagEndpoints.tagMany, {
    params: { tag_id: job.options.tag_id },
    body: { node_ids: ids },
  });
  return answer.results.map((result) => ({ ...result, index: first + result.index }));
}
