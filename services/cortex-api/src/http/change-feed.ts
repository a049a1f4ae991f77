import type { ChangeEventBody } from '@rhizome/contracts/api/events';
import { describeError } from '@rhizome/contracts/errors';
import { sourceCount, sourceIds, sourceStamps, sourcesUpdatedSince } from '@rhizome/core/observability';
import type { Platform } from '@rhizome/core/platform';
import { sourcesModule } from '@rhizome/core/sources';
import { taskSummary } from '@rhizome/core/tasks';
import { RequestScope } from './request-scope.ts';

/** How often the feed looks for changes while someone listens. */
const tickMs = 500;
/** The newest tasks compared on every tick; older ones rarely change state. */
const watchedTasks = 200;

type Listener = (event: ChangeEventBody) => void;

interface SourceBaseline {
  database: string;
  /** updated_at of every source of the database. */
  stamps: Map<string, string>;
  cursor: string;
}

/**
 * One watcher of source and task changes shared by every events subscriber. The worker may run in
 * another process (the stack), so changes are read from the stores rather than from in-process calls:
 * one cheap query per tick for everybody, instead of every open page polling the list endpoints.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private sources: SourceBaseline | null = null;
  private taskStamps: Map<string, string> | null = null;
  /** The last lane counts, handed to each new listener so it starts from the current state. */
  private lanes: Extract<ChangeEventBody, { type: 'lanes' }> | null = null;

  constructor(private readonly platform: Platform) {}

  /** Starts watching with the first listener; the returned function removes it (and stops with the last). */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.lanes) listener(this.lanes);
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), tickMs);
      this.timer.unref();
      void this.tick();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size || !this.timer) return;
      clearInterval(this.timer);
      this.timer = null;
      this.sources = null;
      this.taskStamps = null;
      this.lanes = null;
    };
  }

  private emit(event: ChangeEventBody): void {
    for (const listener of this.listeners) listener(event);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.checkSources();
      await this.checkTasks();
    } catch (error) {
      this.platform.logger.warning(`events: change check failed: ${describeError(error)}`);
    } finally {
      this.running = false;
    }
  }

  private async checkSources(): Promise<void> {
    // One tick reads one database, as one request does.
    const scope = new RequestScope(this.platform);
    const { name, db } = await scope.database();
    const baseline = this.sources;
    if (!baseline || baseline.database !== name) {
      const stamps = await sourceStamps(db);
      this.sources = {
        database: name,
        stamps,
        cursor: [...stamps.values()].reduce((max, stamp) => (stamp > max ? stamp : max), ''),
      };
      if (baseline) this.emit({ type: 'database', database: name });
      return;
    }
    const rows = (await sourcesUpdatedSince(db, baseline.cursor)).filter(
      (row) => baseline.stamps.get(row.id) !== row.updated_at,
    );
    if (rows.length) {
      const views = await (await scope.service(sourcesModule)).views(rows);
      for (const [index, row] of rows.entries()) {
        baseline.stamps.set(row.id, row.updated_at);
        if (row.updated_at > baseline.cursor) baseline.cursor = row.updated_at;
        this.emit({ type: 'source', database: name, source: views[index] });
      }
    }
    if ((await sourceCount(db)) >= baseline.stamps.size) return;
    const present = await sourceIds(db);
    for (const id of [...baseline.stamps.keys()].filter((known) => !present.has(known))) {
      baseline.stamps.delete(id);
      this.emit({ type: 'source_deleted', database: name, source_id: id });
    }
  }

  private async checkTasks(): Promise<void> {
    const { tasks } = this.platform;
    const { tasks: recent } = await tasks.list({ offset: 0, limit: watchedTasks });
    const stamps = new Map(
      recent.map((task) => [task.task_id, `${task.status}|${task.attempts}|${task.started_at}|${task.completed_at}`]),
    );
    const previous = this.taskStamps;
    this.taskStamps = stamps;
    if (previous)
      for (const task of recent)
        if (previous.get(task.task_id) !== stamps.get(task.task_id))
          this.emit({ type: 'task', task: taskSummary(task) });
    const queues = (await tasks.counts()).map(({ queue, queued, running }) => ({ queue, queued, running }));
    if (JSON.stringify(queues) === JSON.stringify(this.lanes?.queues)) return;
    this.lanes = { type: 'lanes', queues };
    this.emit(this.lanes);
  }
}
