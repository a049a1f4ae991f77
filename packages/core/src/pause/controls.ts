import type { Db } from '../storage/index.ts';

export type SystemEventType = 'pause' | 'resume' | 'health_change' | 'task_failed' | 'recovery';

export interface SystemEvent {
  id: number;
  timestamp: string;
  type: SystemEventType;
  action: string | null;
  source: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  database_name: string | null;
}

export interface ProcessingStatus {
  paused: boolean;
  paused_at: string | null;
  reason: string | null;
}

const schema = `
CREATE TABLE IF NOT EXISTS processing_state (id INTEGER PRIMARY KEY CHECK (id = 1), paused INTEGER NOT NULL, paused_at TEXT, reason TEXT, paused_by TEXT);
INSERT OR IGNORE INTO processing_state (id, paused) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS paused_sources (
  database_name TEXT NOT NULL, source_id TEXT NOT NULL, reason TEXT, paused_at TEXT NOT NULL,
  PRIMARY KEY (database_name, source_id)
);
CREATE TABLE IF NOT EXISTS system_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL, type TEXT NOT NULL, action TEXT, source TEXT,
  reason TEXT, details TEXT, database_name TEXT
);
CREATE INDEX IF NOT EXISTS system_events_type ON system_events (type, id);
`;

/**
 * System-wide and per-source pause flags and the system event log (docs/api-conventions.md#pause-and-health),
 * in `<data_dir>/system.db` so the API and every worker process share them.
 */
export class ProcessingControls {
  private constructor(private readonly db: Db) {}

  static async open(db: Db): Promise<ProcessingControls> {
    for (const statement of schema
      .split(';')
      .map((sql) => sql.trim())
      .filter(Boolean))
      await db.raw(statement);
    return new ProcessingControls(db);
  }

  async status(): Promise<ProcessingStatus> {
    const row = await this.db('processing_state').where({ id: 1 }).first();
    return { paused: row?.paused === 1, paused_at: row?.paused_at ?? null, reason: row?.reason ?? null };
  }

  /** Who paused processing (user, health_monitor), or null when it runs. */
  async pausedBy(): Promise<string | null> {
    const row = await this.db('processing_state').where({ id: 1, paused: 1 }).first();
    return row ? (row.paused_by ?? 'user') : null;
  }

  async pause(reason: string | null, source = 'user'): Promise<void> {
    const at = new Date().toISOString();
    await this.db.transaction(async (trx) => {
      await trx('processing_state').where({ id: 1 }).update({ paused: 1, paused_at: at, reason, paused_by: source });
      await trx('system_events').insert({
        timestamp: at,
        type: 'pause',
        action: 'system_pause',
        source,
        reason,
        details: null,
        database_name: null,
      });
    });
  }

  async resume(source = 'user'): Promise<void> {
    const at = new Date().toISOString();
    await this.db.transaction(async (trx) => {
      await trx('processing_state')
        .where({ id: 1 })
        .update({ paused: 0, paused_at: null, reason: null, paused_by: null });
      await trx('system_events').insert({
        timestamp: at,
        type: 'resume',
        action: 'system_resume',
        source,
        reason: null,
        details: null,
        database_name: null,
      });
    });
  }

  /** Pauses sources of a database; returns how many were not paused before. */
  async pauseSources(databaseName: string, sourceIds: string[], reason: string | null): Promise<number> {
    const at = new Date().toISOString();
    const unique = [...new Set(sourceIds)];
    return this.db.transaction(async (trx) => {
      const already = await trx('paused_sources')
        .where({ database_name: databaseName })
        .whereIn('source_id', unique)
        .count({ n: '*' })
        .first();
      for (const sourceId of unique) {
        await trx('paused_sources')
          .insert({ database_name: databaseName, source_id: sourceId, reason, paused_at: at })
          .onConflict(['database_name', 'source_id'])
          .ignore();
      }
      const count = unique.length - Number(already?.n ?? 0);
      await trx('system_events').insert({
        timestamp: at,
        type: 'pause',
        action: 'source_pause',
        source: 'user',
        reason,
        details: JSON.stringify({ source_ids: sourceIds }),
        database_name: databaseName,
      });
      return count;
    });
  }

  /** Resumes sources; returns how many were paused. */
  async resumeSources(databaseName: string, sourceIds: string[]): Promise<number> {
    const at = new Date().toISOString();
    return this.db.transaction(async (trx) => {
      const count = await trx('paused_sources')
        .where({ database_name: databaseName })
        .whereIn('source_id', sourceIds)
        .delete();
      await trx('system_events').insert({
        timestamp: at,
        type: 'resume',
        action: 'source_resume',
        source: 'user',
        reason: null,
        details: JSON.stringify({ source_ids: sourceIds }),
        database_name: databaseName,
      });
      return count;
    });
  }

  async pausedSourceIds(): Promise<Set<string>> {
    return new Set(await this.db('paused_sources').pluck('source_id'));
  }

  async isSourcePaused(databaseName: string, sourceId: string): Promise<boolean> {
    return (
      (await this.db('paused_sources').where({ database_name: databaseName, source_id: sourceId }).first()) !==
      undefined
    );
  }

  async record(event: Omit<SystemEvent, 'id' | 'timestamp'>): Promise<void> {
    await this.db('system_events').insert({
      ...event,
      timestamp: new Date().toISOString(),
      details: event.details ? JSON.stringify(event.details) : null,
    });
  }

  async events(filter: { type?: SystemEventType; limit: number }): Promise<SystemEvent[]> {
    const query = this.db('system_events').orderBy('id', 'desc').limit(filter.limit);
    if (filter.type) query.where({ type: filter.type });
    return (await query).map((row) => ({
      ...row,
      details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
    }));
  }

  async clearEvents(): Promise<number> {
    return this.db('system_events').delete();
  }
}
