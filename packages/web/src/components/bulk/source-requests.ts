import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints, sourceBulkMax, type SourceBulkAction } from '@rhizome/contracts/api/sources';
import type { BatchOutcome } from '@rhizome/contracts/api/batch';
import { api } from '../../lib/api.ts';
import type { QueryOf } from '@rhizome/contracts/endpoint';
import type { RequestBulkJob, SourceTaskBulkJob } from './use-bulk-job.ts';

/**
 * What a person can do to many sources at once by request; delete, enable, disable, tag and untag run as a
 * server task (`startSourceJob`), re-extraction as a queue task of its own.
 */
export type SourceRequestAction = 'pause' | 'resume' | 'confirm';

/** The source list's filter, as GET /sources takes it. */
export type SourceListFilter = Omit<QueryOf<typeof sourceEndpoints.list>, 'page' | 'page_size'>;

/**
 * Starts a bulk action on sources as a server task: on the sources given, or on every one `matching`
 * selects (resolved by the server, so "all N matching" sends no list of ids).
 */
export async function startSourceJob(
  title: string,
  action: SourceBulkAction,
  selection: { ids: string[] } | { matching: SourceListFilter },
  tagId?: string,
): Promise<SourceTaskBulkJob> {
  const chosen = 'ids' in selection ? { source_ids: selection.ids } : { filter: selection.matching };
  const started = await api.call(sourceEndpoints.startBulkJob, {
    body: { action, ...chosen, ...(tagId ? { tag_id: tagId } : {}) },
  });
  return { kind: 'source-job', title, jobId: started.job_id };
}

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
  }
}
