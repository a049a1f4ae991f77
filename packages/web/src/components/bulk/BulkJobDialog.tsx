import { useEffect } from 'react';
import { Button, Group, List, Modal, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import { batchResult, type BatchOutcome, type BatchResult } from '@rhizome/contracts/api/batch';
import { countOf } from '../../lib/format.ts';
import { OpsTaskProgress } from '../../screens/ops/OpsTaskProgress.tsx';
import { useTask } from '../../screens/ops/use-task.ts';
import { useSourceBulkJob } from '../../screens/sources/use-source-bulk-job.ts';
import type { BulkJob, RequestBulkJob, SourceTaskBulkJob } from './use-bulk-job.ts';

/** The failures to list in full; the rest are counted. */
const shownFailures = 50;

/**
 * The progress of a bulk job, one bar per task (or one for a job sent in parts or worked through by the
 * server), then per item what failed and why. It reopens after a reload (the job is kept in the browser)
 * and closes only when the person says so.
 */
export function BulkJobDialog({
  job,
  onClose,
  onSettled,
}: {
  job: BulkJob | null;
  onClose: () => void;
  /** Told each time one of the job's tasks ends, to load the changed list again. */
  onSettled: () => void;
}) {
  return (
    <Modal opened={job !== null} onClose={onClose} title={job?.title ?? ''} size="lg">
      {job && (
        <Stack gap="md" data-testid="bulk-job">
          {job.kind === 'requests' ? (
            <RequestJobOutcome job={job} onSettled={onSettled} />
          ) : job.kind === 'source-job' ? (
            <SourceJobOutcome job={job} onSettled={onSettled} />
          ) : (
            job.taskIds.map((taskId, index) => (
              <BatchTaskOutcome
                key={taskId}
                taskId={taskId}
                label={job.taskIds.length > 1 ? `Part ${index + 1} of ${job.taskIds.length}` : 'Progress'}
                onSettled={onSettled}
              />
            ))
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

interface BatchOperationData {
  operations?: { data?: { id?: unknown } }[];
}

/** What a bulk re-extraction answers: how many started, and each source skipped with the reason. */
interface ExtractionResult {
  requested: number;
  skipped: { source_id: string; reason: string }[];
}

/** A task's result as per-item outcomes: a batch task's as they are, a bulk extraction's skips as failures. */
function outcomesOf(result: unknown): BatchResult | undefined {
  if (!result || typeof result !== 'object') return undefined;
  if ('results' in result) return result as BatchResult;
  if ('skipped' in result) {
    const { requested, skipped } = result as ExtractionResult;
    const failures = skipped.map<BatchOutcome>((skip, index) => ({
      index,
      operation: 're_extract',
      success: false,
      id: skip.source_id,
      error: skip.reason,
    }));
    const started = Array.from({ length: requested - skipped.length }, (_, index) => ({
      index: skipped.length + index,
      operation: 're_extract',
      success: true,
    }));
    return batchResult([...failures, ...started]);
  }
  return undefined;
}

function BatchTaskOutcome({ taskId, label, onSettled }: { taskId: string; label: string; onSettled: () => void }) {
  const state = useTask(taskId);
  const { done } = state;
  useEffect(() => {
    if (done) onSettled();
  }, [done]);
  const result = outcomesOf(state.result);
  // A failed operation of a batch is known by its index; the task's own data says which item that was.
  const operations = (state.task?.data as BatchOperationData | undefined)?.operations ?? [];
  const itemOf = (outcome: BatchOutcome) => {
    const id = outcome.id ?? operations[outcome.index]?.data?.id;
    return typeof id === 'string' ? id : `item ${outcome.index + 1}`;
  };
  return (
    <div>
      <OpsTaskProgress state={state} label={label} />
      {result && <Outcomes result={result} itemOf={itemOf} />}
    </div>
  );
}

/** A job the browser sends in parts: how far it got, then what failed. */
function RequestJobOutcome({ job, onSettled }: { job: RequestBulkJob; onSettled: () => void }) {
  const sent = job.outcomes.length;
  useEffect(() => {
    if (sent > 0) onSettled();
  }, [sent]);
  const finished = sent >= job.ids.length;
  return (
    <div>
      <CountedProgress done={sent} total={job.ids.length} finished={finished} />
      {finished && (
        <Outcomes result={batchResult(job.outcomes)} itemOf={(outcome) => outcome.id ?? `item ${outcome.index + 1}`} />
      )}
    </div>
  );
}

/** A job the server works through: its progress by id, live from the change stream, then what failed and why. */
function SourceJobOutcome({ job, onSettled }: { job: SourceTaskBulkJob; onSettled: () => void }) {
  const read = useSourceBulkJob(job.jobId);
  const { finished } = read;
  const state = read.data;
  useEffect(() => {
    if (finished) onSettled();
  }, [finished]);
  if (read.error) return <Text c="red">{read.error}</Text>;
  if (!state) return <CountedProgress done={0} total={0} finished={false} />;
  const stopped = state.status === 'failed' || state.status === 'cancelled';
  const result: BatchResult = {
    results: state.failures.map((failure) => ({ ...failure, operation: state.action, success: false })),
    succeeded: state.succeeded,
    failed: state.failed,
  };
  return (
    <div>
      <CountedProgress
        done={state.processed}
        total={state.total}
        finished={finished}
        stopped={stopped ? `Stopped (${state.status}) after ${state.processed.toLocaleString()}` : undefined}
      />
      {(finished || state.failed > 0) && <Outcomes result={result} itemOf={(outcome) => outcome.id ?? ''} />}
    </div>
  );
}

/** A bar of how many of the items are done, with the count beside its label. */
function CountedProgress({
  done,
  total,
  finished,
  stopped,
}: {
  done: number;
  total: number;
  finished: boolean;
  /** Said instead of "Done" for a job that ended before its last item. */
  stopped?: string;
}) {
  const percent = total ? Math.round((100 * done) / total) : finished ? 100 : 0;
  return (
    <>
      <Group justify="space-between" mb={4}>
        <Text fz="sm" fw={500}>
          Progress
        </Text>
        <Text fz="sm" c={stopped ? 'red' : 'dimmed'} aria-live="polite">
          {finished
            ? (stopped ?? 'Done')
            : total
              ? `${done.toLocaleString()} of ${total.toLocaleString()}`
              : 'Starting'}
        </Text>
      </Group>
      <Progress
        value={percent}
        color={stopped ? 'red' : finished ? 'teal' : 'blue'}
        animated={!finished}
        striped={!finished}
        aria-label="Progress"
      />
    </>
  );
}

/** How many items succeeded and failed, and the first failures with their reasons. */
function Outcomes({ result, itemOf }: { result: BatchResult; itemOf: (outcome: BatchOutcome) => string }) {
  const failures = result.results.filter((outcome) => !outcome.success);
  return (
    <>
      <Text fz="sm" mt={4} data-testid="bulk-job-summary">
        {countOf(result.succeeded, 'item')} done, {countOf(result.failed, 'item')} failed
      </Text>
      {failures.length > 0 && (
        <ScrollArea.Autosize mah={220} mt={4}>
          <List size="sm" spacing={2} aria-label="Items that failed">
            {failures.slice(0, shownFailures).map((outcome) => (
              <List.Item key={outcome.index}>
                <Text span fz="sm" ff="monospace">
                  {itemOf(outcome)}
                </Text>
                : {outcome.error ?? 'failed'}
              </List.Item>
            ))}
          </List>
          {failures.length > shownFailures && (
            <Text fz="sm" c="dimmed">
              and {countOf(failures.length - shownFailures, 'more')}
            </Text>
          )}
        </ScrollArea.Autosize>
      )}
    </>
  );
}
