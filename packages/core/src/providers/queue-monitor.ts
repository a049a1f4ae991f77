import type { Settings } from '@rhizome/contracts/settings';
import { maxPendingPerQueue, type LaneCounts, type QueueName, type TaskStore } from '@rhizome/queue';
import { llmConcurrency } from '../tasks/index.ts';
import type { LlmMetrics } from './metrics.ts';
import { estimatedCost, usageTotals } from './usage.ts';

/** How many of a lane's newest tasks are read to learn how long one task takes. */
const durationSample = 100;

export interface QueueMonitorSources {
  tasks: TaskStore;
  metrics: LlmMetrics;
  settings: Settings;
}

/**
 * The llm lane as a queue monitor shows it (GET /llm/stats, the dashboard): its depth, the tokens and cost
 * of the model calls since `since` (or since the last reset, if later), and how long the lanes' queued and
 * running work should take at the pace of their recently finished tasks.
 */
export async function llmQueueStats({ tasks, metrics, settings }: QueueMonitorSources, since: Date) {
  const now = Date.now();
  const resetAt = await metrics.monitorResetAt();
  const from = resetAt && resetAt > since ? resetAt : since;
  const [counts, rows, workers, llmTaskMs, operationsTaskMs] = await Promise.all([
    tasks.counts(),
    metrics.stats(from),
    tasks.workerCount('llm', now),
    averageTaskMs(tasks, 'llm'),
    averageTaskMs(tasks, 'operations'),
  ]);
  const llm = laneOf(counts, 'llm');
  const usage = usageTotals(rows);
  const tokens = {
    total_input_tokens: usage.input_tokens,
    total_output_tokens: usage.output_tokens,
    total_tokens: usage.input_tokens + usage.output_tokens,
    total_cost_usd: estimatedCost(rows, settings),
  };
  const slots = llmConcurrency(settings);
  const llmSeconds = secondsLeft(llm, llmTaskMs, slots);
  const operationsSeconds = secondsLeft(
    laneOf(counts, 'operations'),
    operationsTaskMs,
    settings.workers.operations_max_concurrent,
  );
  return {
    queues: [
      {
        queue: 'llm' as const,
        queued: llm.queued,
        running: llm.running,
        completed_recent: 0,
        failed_recent: 0,
        workers,
        max_depth: maxPendingPerQueue,
        depth_percent: Math.round((llm.queued / maxPendingPerQueue) * 10_000) / 100,
        ...tokens,
      },
    ],
    total_queued: llm.queued,
    ...tokens,
    estimated_completion_time_seconds: llmSeconds,
    estimated_completion_time_human: humanDuration(llmSeconds),
    estimated_completion_times_human: { llm: humanDuration(llmSeconds), operations: humanDuration(operationsSeconds) },
    semaphore_stats: {
      max_concurrent: slots,
      reserved_high_priority: 0,
      active_count: llm.running,
      active_high_priority: 0,
      active_low_priority: 0,
      waiting_high_priority: 0,
      waiting_low_priority: 0,
      total_high_priority: 0,
      total_low_priority: 0,
      avg_wait_time_high: null,
      avg_wait_time_low: null,
    },
    since: from.toISOString(),
    by_model: rows,
  };
}

function laneOf(counts: readonly LaneCounts[], queue: QueueName): LaneCounts {
  return counts.find((lane) => lane.queue === queue) ?? { queue, queued: 0, running: 0 };
}

/** The mean run time of the lane's recently completed tasks; null when none is at hand. */
async function averageTaskMs(tasks: TaskStore, queue: QueueName): Promise<number | null> {
  const { tasks: recent } = await tasks.list({ queues: [queue], offset: 0, limit: durationSample });
  const runs = recent
    .filter((task) => task.status === 'completed' && task.started_at && task.completed_at)
    .map((task) => Date.parse(task.completed_at!) - Date.parse(task.started_at!));
  return runs.length ? runs.reduce((sum, ms) => sum + ms, 0) / runs.length : null;
}

/** Seconds until the lane's queued and running tasks are done, `slots` at a time; null without a pace. */
function secondsLeft(lane: LaneCounts, taskMs: number | null, slots: number): number | null {
  const waiting = lane.queued + lane.running;
  if (!waiting) return 0;
  if (taskMs === null) return null;
  return Math.ceil((Math.ceil(waiting / Math.max(1, slots)) * taskMs) / 1000);
}

/** "45s", "3m 5s" or "1h 2m". */
function humanDuration(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}
