import { randomBytes } from 'node:crypto';
import type { SourceBulkAction } from '@rhizome/contracts/api/sources';
import { Invalid, NotFound } from '@rhizome/contracts/errors';
import { TaskCancelledError, type QueueService, type TaskStatus, type TaskStore } from '@rhizome/queue';
import type { Db } from '../../storage/index.ts';
import { listSources, type SourceFilter } from '../repo.ts';
import type { SourceService } from '../service.ts';
import { sourceBulkStep, type SourceStep } from './actions.ts';

/** The queue operation that works a bulk job through (operations lane). */
export const sourceBulkOperation = 'sources.bulk';

/** A source the action failed on, and why. */
export interface SourceBulkFailure {
  index: number;
  id: string;
  error: string;
}

/** A bulk job as GET shows it: its task's state and how far it got. */
export interface SourceBulkJobView {
  job_id: string;
  task_id: string | null;
  action: SourceBulkAction;
  tag_id: string | null;
  /** The task's state; `completed` for a job worked through whose task the queue has let go of. */
  status: TaskStatus;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  failures: SourceBulkFailure[];
  created_at: string;
  updated_at: string;
}

/** The sources a job is given: listed, or every source a list filter matches. */
export type SourceSelection = { sourceIds: string[] } | { filter: SourceFilter };

interface JobRow {
  id: string;
  task_id: string | null;
  action: SourceBulkAction;
  tag_id: string | null;
  source_ids: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  failures: string;
  created_at: string;
  updated_at: string;
}

const resolvePage = 1_000;
/** How often a running job writes how far it got: every this many sources, or this many milliseconds. */
const progressEvery = { sources: 25, ms: 250 };

/**
 * Bulk actions on many sources run as one queue task each (`sources.bulk`): the job's row holds the
 * sources in order and the task writes its progress and each failure with the reason there as it goes,
 * so the browser can follow it by id after a reload and a task re-run after a crash goes on where the
 * last write left it.
 */
export class SourceBulkJobs {
  constructor(
    private readonly deps: {
      db: Db;
      database: string;
      service: SourceService;
      queue: QueueService;
      tasks: TaskStore;
    },
  ) {}

  /** What the action does to each source, for a request acting on a few at once; see `sourceBulkStep`. */
  step(action: SourceBulkAction, tagId: string | undefined): Promise<SourceStep> {
    return sourceBulkStep(this.deps.service, action, tagId);
  }

  /**
   * Records the job and queues its task. The action is checked first (a tag or untag without an existing
   * tag is refused as a whole); a filter is resolved to the sources it matches now, newest first as listed.
   */
  async start(action: SourceBulkAction, tagId: string | undefined, selection: SourceSelection) {
    await sourceBulkStep(this.deps.service, action, tagId);
    const ids = 'sourceIds' in selection ? selection.sourceIds : await this.matching(selection.filter);
    if (!ids.length)
      throw new Invalid([{ loc: ['body', 'filter'], msg: 'The filter matches no source', type: 'value_error' }]);
    const at = new Date().toISOString();
    const id = `bulk_${randomBytes(8).toString('hex')}`;
    await this.deps.db('source_bulk_jobs').insert({
      id,
      action,
      tag_id: tagId ?? null,
      source_ids: JSON.stringify(ids),
      total: ids.length,
      created_at: at,
      updated_at: at,
    });
    const task = await this.deps.queue.submit({
      queue: 'operations',
      operation: sourceBulkOperation,
      data: { database: this.deps.database, job_id: id },
      metadata: { database: this.deps.database, bulk_job_id: id },
    });
    await this.deps.db('source_bulk_jobs').where({ id }).update({ task_id: task.task_id });
    return this.get(id);
  }

  async get(jobId: string): Promise<SourceBulkJobView> {
    const row = await this.row(jobId);
    const task = row.task_id ? await this.deps.tasks.get(row.task_id) : null;
    const worked = row.processed >= row.total ? 'completed' : 'queued';
    const { id, source_ids: _ids, failures, ...counts } = row;
    return {
      job_id: id,
      ...counts,
      status: task?.status ?? worked,
      failures: JSON.parse(failures) as SourceBulkFailure[],
    };
  }

  /**
   * Works the job through from where it stands, each source on its own: a failure is recorded with its
   * reason and the job goes on. Answers the counts once every source was tried.
   */
  async run(jobId: string, checkCancelled: () => Promise<void>) {
    const row = await this.row(jobId);
    const ids = JSON.parse(row.source_ids) as string[];
    const step = await sourceBulkStep(this.deps.service, row.action, row.tag_id ?? undefined, ['data']);
    const state = {
      processed: row.processed,
      succeeded: row.succeeded,
      failed: row.failed,
      failures: JSON.parse(row.failures) as SourceBulkFailure[],
    };
    const save = () =>
      this.deps
        .db('source_bulk_jobs')
        .where({ id: jobId })
        .update({ ...state, failures: JSON.stringify(state.failures), updated_at: new Date().toISOString() });
    let savedAt = { processed: state.processed, time: Date.now() };
    for (let index = state.processed; index < ids.length; index++) {
      try {
        await step(ids[index]);
        state.succeeded++;
      } catch (error) {
        if (error instanceof TaskCancelledError) throw error;
        state.failed++;
        state.failures.push({ index, id: ids[index], error: error instanceof Error ? error.message : String(error) });
      }
      state.processed = index + 1;
      if (
        state.processed - savedAt.processed >= progressEvery.sources ||
        Date.now() - savedAt.time >= progressEvery.ms
      ) {
        await save();
        savedAt = { processed: state.processed, time: Date.now() };
        await checkCancelled();
      }
    }
    await save();
    return { job_id: jobId, total: ids.length, succeeded: state.succeeded, failed: state.failed };
  }

  private async row(jobId: string): Promise<JobRow> {
    const row = (await this.deps.db('source_bulk_jobs').where({ id: jobId }).first()) as JobRow | undefined;
    if (!row) throw NotFound.resource('source_bulk_job', jobId);
    return row;
  }

  private async matching(filter: SourceFilter): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += resolvePage) {
      const { rows } = await listSources(this.deps.db, filter, offset, resolvePage);
      ids.push(...rows.map((source) => source.id));
      if (rows.length < resolvePage) return ids;
    }
  }
}
