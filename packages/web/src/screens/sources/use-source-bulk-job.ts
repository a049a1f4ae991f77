import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { useChanges } from '../../lib/ChangesProvider.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

const ended = new Set(['completed', 'failed', 'cancelled']);

/**
 * The floor under the change stream while a job runs: a tag or untag changes no source the stream
 * announces, so its count moves at this pace; a delete, enable or disable moves with the stream.
 */
export const bulkJobFallbackMs = 3_000;

/**
 * A source bulk job read by id, following the change stream as the other reads do: each change to a
 * source reloads it with the source reads (coalesced, `lib/data/invalidation.ts`), and an event of its own
 * task (started, ended) reloads it at once, so the end shows without waiting. A slow poll stands under
 * both until the job ends; while the stream is down the data layer refreshes every read anyway.
 */
export function useSourceBulkJob(jobId: string) {
  const read = useEndpoint(
    sourceEndpoints.bulkJob,
    { params: { job_id: jobId } },
    { refreshMs: (data) => (data && ended.has(data.status) ? false : bulkJobFallbackMs), keepPrevious: false },
  );
  const taskId = read.data?.task_id;
  const finished = read.data !== undefined && ended.has(read.data.status);
  const { reload } = read;
  useChanges((event) => {
    if (event.type === 'task' && taskId && event.task.task_id === taskId && !finished) void reload();
  });
  return { ...read, finished };
}
