import type { Db } from '../storage/index.ts';

/** One model or embedding call as the metrics table keeps it. */
export interface LlmCallRecord {
  provider: string;
  model: string;
  /** chat, extraction, title, vision, tool, verify, or embedding. */
  operation: string;
  instanceId?: string | null;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  attempts: number;
  success: boolean;
  errorKind?: string | null;
  database?: string | null;
  sourceId?: string | null;
  chatId?: string | null;
  taskId?: string | null;
}

export interface LlmStatsRow {
  provider: string;
  model: string;
  operation: string;
  calls: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  avg_duration_ms: number;
  p95_duration_ms: number;
  last_call_at: string;
}

/** One row of `llm_calls` as stored. */
export interface LlmCallRow {
  id: number;
  at: string;
  provider: string;
  model: string;
  operation: string;
  instance_id: string | null;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
  attempts: number;
  success: number;
  error_kind: string | null;
  database_name: string | null;
  source_id: string | null;
  chat_id: string | null;
  task_id: string | null;
}

/** What a source or chat has spent: the API's llm_total_* fields. */
export interface LlmTotals {
  calls: number;
  failed_calls: number;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
}

const schema = `
CREATE TABLE IF NOT EXISTS llm_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL, operation TEXT NOT NULL,
  instance_id TEXT, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, duration_ms REAL NOT NULL, attempts INTEGER NOT NULL,
  success INTEGER NOT NULL, error_kind TEXT, database_name TEXT, source_id TEXT, chat_id TEXT, task_id TEXT
);
CREATE INDEX IF NOT EXISTS llm_calls_at ON llm_calls (at);
CREATE INDEX IF NOT EXISTS llm_calls_source ON llm_calls (database_name, source_id) WHERE source_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS llm_calls_chat ON llm_calls (database_name, chat_id) WHERE chat_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS llm_monitor (id INTEGER PRIMARY KEY CHECK (id = 1), reset_at TEXT NOT NULL);
`;

const retentionDays = 90;

/**
 * Every model and embedding call, in `<data_dir>/system.db` so all processes write one table and
 * /llm/stats, sources and chats read the same numbers.
 */
export class LlmMetrics {
  private constructor(private readonly db: Db) {}

  static async open(db: Db): Promise<LlmMetrics> {
    for (const statement of schema
      .split(';')
      .map((sql) => sql.trim())
      .filter(Boolean))
      await db.raw(statement);
    await db('llm_calls')
      .where('at', '<', new Date(Date.now() - retentionDays * 86_400_000).toISOString())
      .delete();
    return new LlmMetrics(db);
  }

  async record(call: LlmCallRecord): Promise<void> {
    await this.db('llm_calls').insert({
      at: new Date().toISOString(),
      provider: call.provider,
      model: call.model,
      operation: call.operation,
      instance_id: call.instanceId ?? null,
      input_tokens: call.inputTokens,
      output_tokens: call.outputTokens,
      duration_ms: call.durationMs,
      attempts: call.attempts,
      success: call.success ? 1 : 0,
      error_kind: call.errorKind ?? null,
      database_name: call.database ?? null,
      source_id: call.sourceId ?? null,
      chat_id: call.chatId ?? null,
      task_id: call.taskId ?? null,
    });
  }

  /** Calls, errors, tokens and latency per provider, model and operation since `since`. */
  async stats(since: Date): Promise<LlmStatsRow[]> {
    const rows = (await this.db.raw(
      `WITH ranked AS (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY provider, model, operation ORDER BY duration_ms) AS rank,
                COUNT(*) OVER (PARTITION BY provider, model, operation) AS total
         FROM llm_calls WHERE at >= ?)
       SELECT provider, model, operation, COUNT(*) AS calls, SUM(success = 0) AS errors,
              SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
              AVG(duration_ms) AS avg_duration_ms, MIN(duration_ms) FILTER (WHERE rank >= 0.95 * total) AS p95_duration_ms,
              MAX(at) AS last_call_at
       FROM ranked GROUP BY provider, model, operation ORDER BY calls DESC, provider, model, operation`,
      [since.toISOString()],
    )) as LlmStatsRow[];
    return rows.map((row) => ({
      ...row,
      avg_duration_ms: round(row.avg_duration_ms),
      p95_duration_ms: round(row.p95_duration_ms),
    }));
  }

  /**
   * The queue monitor's totals restart at `at`. The call records stay: sources and chats keep what they
   * spent, only the monitor counts from the later of its window and this moment.
   */
  async resetMonitor(at: Date): Promise<void> {
    await this.db('llm_monitor').insert({ id: 1, reset_at: at.toISOString() }).onConflict('id').merge();
  }

  async monitorResetAt(): Promise<Date | null> {
    const row = (await this.db('llm_monitor').where({ id: 1 }).first('reset_at')) as { reset_at: string } | undefined;
    return row ? new Date(row.reset_at) : null;
  }

  async totalsBy(database: string, column: 'source_id' | 'chat_id', ids: string[]): Promise<Map<string, LlmTotals>> {
    const empty = (): LlmTotals => ({ calls: 0, failed_calls: 0, input_tokens: 0, output_tokens: 0, duration_ms: 0 });
    const totals = new Map(ids.map((id) => [id, empty()]));
    if (!ids.length) return totals;
    const rows = (await this.db('llm_calls')
      .where({ database_name: database })
      .whereIn(column, ids)
      .groupBy(column)
      .select(
        this.db.raw(
          `${column} AS id, COUNT(*) AS calls, SUM(success = 0) AS failed_calls, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(duration_ms) AS duration_ms`,
        ),
      )) as (LlmTotals & { id: string })[];
    for (const { id, ...row } of rows) totals.set(id, { ...row, duration_ms: round(row.duration_ms) });
    return totals;
  }

  /** One page of a source's call records, newest first, and how many there are (optionally only the (un)successful ones). */
  async callsOf(
    database: string,
    sourceId: string,
    page: { offset: number; limit: number },
    success?: boolean,
  ): Promise<{ rows: LlmCallRow[]; total: number }> {
    const query = () => {
      const rows = this.db('llm_calls').where({ database_name: database, source_id: sourceId });
      if (success !== undefined) rows.where({ success: success ? 1 : 0 });
      return rows;
    };
    const rows = (await query().orderBy('id', 'desc').offset(page.offset).limit(page.limit).select()) as LlmCallRow[];
    const counted = (await query().count({ n: '*' }).first()) as { n: number } | undefined;
    return { rows, total: Number(counted?.n ?? 0) };
  }

  async totals(subject: { database: string; sourceId?: string; chatId?: string }): Promise<LlmTotals> {
    const query = this.db('llm_calls').where({ database_name: subject.database });
    if (subject.sourceId) query.where({ source_id: subject.sourceId });
    if (subject.chatId) query.where({ chat_id: subject.chatId });
    const row = (await query
      .select(
        this.db.raw(
          'COUNT(*) AS calls, COALESCE(SUM(success = 0), 0) AS failed_calls, COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens, COALESCE(SUM(duration_ms), 0) AS duration_ms',
        ),
      )
      .first()) as LlmTotals;
    return { ...row, duration_ms: round(row.duration_ms) };
  }
}

function round(value: number | null): number {
  return Math.round((value ?? 0) * 10) / 10;
}
