import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints, sourceBulkMax, type SourceBulkAction } from '@rhizome/contracts/api/sources';
import type { BatchOutcome } from '@rhizome/contracts/api/batch';
import { api } from '../../lib/api.ts';
import type { RequestBulkJob } from './use-bulk-job.ts';

/** What a person can do to many sources at once by request (re-extraction runs as a queue task instead). */
export type SourceRequestAction = SourceBulkAction | 'pause' | 'resume' | 'confirm';

/** Sources per request: small enough that the progress moves and a reload loses little, well under the cap. */
export const sourcesPerRequest = Math.min(100, sourceBulkMax);

const succeeded = (ids: string[], first: number, action: string): BatchOutcome[] =>
  ids.map((id, offset) => ({ index: first + offset, operation: action, success: true, id }));

/** Sends one part of a source job and answers the outcome of each source in it, indexed in the whole job. */
export async function sendSourcePart(job: RequestBulkJob, first: number, ids: string[]): Promise<BatchOutcome[]> {
  const action = job.action as SourceRequestAction;
  switch (action) {
    case 'pause':
      await api.call(sourcePauseEndpoints.pauseMany, { body: { source_ids: ids, reason: null } });
      return succeeded(ids, first, action);
    case 'resume':
      await api.call(sourcePauseEndpoints.resumeMany, { body: { source_ids: ids } });
      return succeeded(ids, first, action);
    case 'confirm': {
      const answer = await api.call(sourceEndpoints.confirmMany, { body: { source_ids: ids } });
      const byId = new Map(answer.results.map((result) => [result.source_id, result]));
      return ids.map((id, offset) => {
        const result = byId.get(id);
        return {
          index: first + offset,
          operation: action,
          success: result?.success ?? false,
          id,
          ...(result?.success ? {} : { error: result?.error ?? 'not confirmed' }),
        };
      });
    }
    default: {
      const answer = await api.call(sourceEndpoints.bulk, {
        body: { action, source_ids: ids, ...(job.options.tag_id ? { tag_id: job.options.tag_id } : {}) },
      });
      return answer.results.map((result) => ({ ...result, index: first + result.index }));
    }
  }
}
