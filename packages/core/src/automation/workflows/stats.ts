import type { Db } from '../../storage/index.ts';
import { now } from '../rows.ts';
import { executionOutcomes, successRate } from './executions.ts';
import { requireWorkflowRow } from './repo.ts';

/** Workflows by state and top-level executions by outcome: GET /workflows/stats and the dashboard. */
export async function workflowStats(db: Db) {
  const counts = (await db('workflows').first(
    db.raw('COUNT(*) AS total'),
    db.raw('COUNT(*) FILTER (WHERE is_active = TRUE) AS active'),
  )) as { total: number; active: number };
  const executions = await executionOutcomes(db);
  return {
    total_workflows: counts.total,
    active_workflows: counts.active,
    inactive_workflows: counts.total - counts.active,
    total_executions: executions.total,
    successful_executions: executions.completed,
    failed_executions: executions.failed,
    cancelled_executions: executions.cancelled,
    pending_executions: executions.pending,
    success_rate: executions.successRate,
    average_duration_ms: executions.averageMs,
  };
}

/**
 * GET /workflows/{id}/stats: every execution of one workflow (nested runs included) by outcome, the
 * durations of the finished ones and when the latest of each kind started.
 */
export async function workflowExecutionStats(db: Db, workflowId: string) {
  await requireWorkflowRow(db, workflowId);
  const row = (await db('workflow_executions')
    .where({ workflow_id: workflowId })
    .first(
      db.raw('COUNT(*) AS total'),
      db.raw("COUNT(*) FILTER (WHERE status = 'completed') AS completed"),
      db.raw("COUNT(*) FILTER (WHERE status = 'failed') AS failed"),
      db.raw("COUNT(*) FILTER (WHERE status = 'cancelled') AS cancelled"),
      db.raw("AVG(CASE WHEN status IN ('completed', 'failed') THEN duration_ms END) AS average_ms"),
      db.raw("MIN(CASE WHEN status IN ('completed', 'failed') THEN duration_ms END) AS min_ms"),
      db.raw("MAX(CASE WHEN status IN ('completed', 'failed') THEN duration_ms END) AS max_ms"),
      db.raw('MAX(created_at) AS last_execution_at'),
      db.raw("MAX(CASE WHEN status = 'completed' THEN created_at END) AS last_success_at"),
      db.raw("MAX(CASE WHEN status = 'failed' THEN created_at END) AS last_failure_at"),
    )) as {
    total: number;
    completed: number;
    failed: number;
    cancelled: number;
    average_ms: number | null;
    min_ms: number | null;
    max_ms: number | null;
    last_execution_at: string | null;
    last_success_at: string | null;
    last_failure_at: string | null;
  };
  return {
    workflow_id: workflowId,
    total_executions: row.total,
    successful_executions: row.completed,
    failed_executions: row.failed,
    cancelled_executions: row.cancelled,
    success_rate: successRate(row),
    avg_duration_ms: Math.round(row.average_ms ?? 0),
    min_duration_ms: row.min_ms,
    max_duration_ms: row.max_ms,
    last_execution_at: row.last_execution_at,
    last_success_at: row.last_success_at,
    last_failure_at: row.last_failure_at,
    updated_at: now(),
  };
}
