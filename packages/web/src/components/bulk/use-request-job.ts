import { useEffect, useRef } from 'react';
import type { BatchOutcome } from '@rhizome/contracts/api/batch';
import { messageOf } from '../../lib/api.ts';
import type { BulkJob, RequestBulkJob } from './use-bulk-job.ts';

/**
 * Drives a job sent in parts: while it has items left, sends the next `partSize` of them, records their
 * outcomes (kept in the browser by `save`) and goes on. A part that fails as a whole marks each of its
 * items failed with the reason, and the job goes on with the next.
 */
export function useRequestJob(
  job: BulkJob | null,
  save: (job: BulkJob) => void,
  send: (job: RequestBulkJob, first: number, ids: string[]) => Promise<BatchOutcome[]>,
  partSize: number,
) {
  // The job a part is on its way for, sent once; and the job on view when it comes back: a job closed or
  // replaced meanwhile is not saved again.
  const sentFor = useRef<BulkJob | null>(null);
  const current = useRef(job);
  current.current = job;
  useEffect(() => {
    if (job?.kind !== 'requests' || sentFor.current === job) return;
    const first = job.outcomes.length;
    if (first >= job.ids.length) return;
    const part = job.ids.slice(first, first + partSize);
    sentFor.current = job;
    void send(job, first, part)
      .catch((error: unknown) =>
        part.map((id, offset) => ({
          index: first + offset,
          operation: job.action,
          success: false,
          id,
          error: messageOf(error),
        })),
      )
      .then((outcomes) => {
        if (current.current === job) save({ ...job, outcomes: [...job.outcomes, ...outcomes] });
      });
  }, [job, save, send, partSize]);
}
