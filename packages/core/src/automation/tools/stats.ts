import type { Db } from '../../storage/index.ts';

export type ToolType = 'system' | 'user';

export interface ToolCall {
  toolType: ToolType;
  toolId: string;
  executionId: string | null;
  success: boolean;
  durationMs: number;
  error: string | null;
}

export async function recordToolCalls(db: Db, calls: ToolCall[]): Promise<void> {
  if (!calls.length) return;
  const at = new Date().toISOString();
  await db('tool_calls').insert(
    calls.map((call) => ({
      tool_type: call.toolType,
      tool_id: call.toolId,
      execution_id: call.executionId,
      success: call.success,
      duration_ms: Math.round(call.durationMs),
      error: call.error,
      called_at: at,
    })),
  );
}

/** GET /tools/stats/{tool_type}/{tool_id}: aggregated from every recorded call; null when the tool was never called. */
export async function toolStats(db: Db, toolType: ToolType, toolId: string) {
  const row = (await db('tool_calls')
    .where({ tool_type: toolType, tool_id: toolId })
    .first(
      db.raw('COUNT(*) AS total'),
      db.raw('COUNT(*) FILTER (WHERE success = TRUE) AS successful'),
      db.raw('AVG(duration_ms) AS average'),
      db.raw('MAX(called_at) AS last_called_at'),
    )) as { total: number; successful: number; average: number | null; last_called_at: string | null };
  if (!row.total) return null;
  return {
    tool_type: toolType,
    tool_id: toolId,
    total_calls: row.total,
    successful_calls: row.successful,
    failed_calls: row.total - row.successful,
    avg_execution_ms: Math.round((row.average ?? 0) * 100) / 100,
    last_called_at: row.last_called_at,
    updated_at: row.last_called_at,
  };
}
