/**
 * `<data_dir>/queue.db`: one row per task, the live workers' marks, and per-lane counts kept by triggers
 * so the pending limit and the stats cost one row read however long the queue is.
 */
export const queueSchema = `
CREATE TABLE IF NOT EXISTS tasks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id TEXT NOT NULL UNIQUE,
  queue TEXT NOT NULL,
  operation TEXT NOT NULL,
  status TEXT NOT NULL,
  priority INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_tries INTEGER NOT NULL,
  retry_on_crash INTEGER NOT NULL,
  payload_version INTEGER NOT NULL,
  pausable INTEGER NOT NULL,
  source_id TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  completed_at INTEGER,
  error TEXT,
  error_type TEXT,
  run_after INTEGER NOT NULL DEFAULT 0,
  retried_to TEXT,
  retry_of TEXT,
  worker_id TEXT,
  heartbeat_at INTEGER,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  result TEXT,
  retain_until INTEGER,
  crashes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tasks_pending ON tasks (queue, priority DESC, seq) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS tasks_running ON tasks (queue) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS tasks_by_queue ON tasks (queue, seq);
CREATE INDEX IF NOT EXISTS tasks_retention ON tasks (retain_until) WHERE retain_until IS NOT NULL;
CREATE TABLE IF NOT EXISTS lane_counts (
  queue TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (queue, status)
);
CREATE TRIGGER IF NOT EXISTS tasks_count_insert AFTER INSERT ON tasks BEGIN
  UPDATE lane_counts SET n = n + 1 WHERE queue = NEW.queue AND status = NEW.status;
END;
CREATE TRIGGER IF NOT EXISTS tasks_count_delete AFTER DELETE ON tasks BEGIN
  UPDATE lane_counts SET n = n - 1 WHERE queue = OLD.queue AND status = OLD.status;
END;
CREATE TRIGGER IF NOT EXISTS tasks_count_update AFTER UPDATE OF status ON tasks WHEN OLD.status <> NEW.status BEGIN
  UPDATE lane_counts SET n = n - 1 WHERE queue = OLD.queue AND status = OLD.status;
  UPDATE lane_counts SET n = n + 1 WHERE queue = NEW.queue AND status = NEW.status;
END;
CREATE TABLE IF NOT EXISTS workers (
  queue TEXT NOT NULL,
  worker_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (queue, worker_id)
);
`;

export interface TaskRow {
  seq: number;
  task_id: string;
  queue: string;
  operation: string;
  status: string;
  priority: number;
  data: string;
  metadata: string;
  attempts: number;
  max_tries: number;
  retry_on_crash: number;
  payload_version: number;
  pausable: number;
  source_id: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  error: string | null;
  error_type: string | null;
  run_after: number;
  retried_to: string | null;
  retry_of: string | null;
  worker_id: string | null;
  heartbeat_at: number | null;
  cancel_requested: number;
  result: string | null;
  retain_until: number | null;
  /** How often a worker died while running the task. */
  crashes: number;
}

/** Columns added after the first release, for queue files created before them. */
export const addedColumns: { name: string; definition: string }[] = [
  { name: 'crashes', definition: 'INTEGER NOT NULL DEFAULT 0' },
];

/** Rebuilds the counts from the tasks (at open: the triggers keep them from then on). */
export const recountLanes = `
DELETE FROM lane_counts;
INSERT INTO lane_counts (queue, status, n)
  SELECT lanes.queue, statuses.status, (SELECT count(*) FROM tasks WHERE tasks.queue = lanes.queue AND tasks.status = statuses.status)
  FROM (SELECT 'operations' AS queue UNION ALL SELECT 'llm') AS lanes,
       (SELECT 'queued' AS status UNION ALL SELECT 'running' UNION ALL SELECT 'completed' UNION ALL SELECT 'failed' UNION ALL SELECT 'cancelled') AS statuses;
`;
