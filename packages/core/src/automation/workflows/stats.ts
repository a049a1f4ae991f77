import type { Db } from '../../storage/index.ts';
import { executionOutcomes } from './executions.ts';

/** Workflows by state and top-level executions by outcome: GET /workflows/stats and the dashboard. */
export async function workflowStats(db: Db) {
  const counts = (await db('workflows').first(
    db.raw('COUNT(*) AS total'),
    db.raw('COALESCE(SUM(is_active), 0) AS active'),
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
