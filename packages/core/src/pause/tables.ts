import type { SystemEventType } from './controls.ts';

/** The one row of `processing_state` (system.db): the system-wide pause flag. */
export interface ProcessingStateRow {
  id: 1;
  paused: 0 | 1;
  paused_at: string | null;
  reason: string | null;
  paused_by: string | null;
}

/** A paused source of one database (system.db). */
export interface PausedSourceRow {
  database_name: string;
  source_id: string;
  reason: string | null;
  paused_at: string;
}

/** One entry of the system event log (system.db); `details` is JSON text. */
export interface SystemEventRow {
  id: number;
  timestamp: string;
  type: SystemEventType;
  action: string | null;
  source: string | null;
  reason: string | null;
  details: string | null;
  database_name: string | null;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    processing_state: ProcessingStateRow;
    paused_sources: PausedSourceRow;
    system_events: SystemEventRow;
  }
}
