import { BadInput, Invalid, NotFound, Conflict } from '@rhizome/contracts/errors';
import { sourceIdsIn, sourceStatuses } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { activeJobStatuses, type JobStatus } from './jobs.ts';
import type { ExtractionRequest } from './options.ts';

/** `extraction.bulk` (operations lane): starts the extraction of many sources, one after another. */
export const bulkExtractionOperation = 'extraction.bulk';

export interface BulkExtractionRequest extends Omit<ExtractionRequest, 'force'> {
  source_ids?: string[];
  all?: boolean;
  /** Restart sources whose extraction is running; without it they are skipped (listed) or, named by id, refused. */
  force?: boolean;
}

/** What a bulk run may (re-)extract: a committed source's contribution is replaced when its new extraction commits. */
const bulkStartable: readonly string[] = ['indexed', 'extracted', 'committed', 'error'];
/** What `all` selects: every source extraction already ran on, successfully or not. */
const allStatuses = ['extracted', 'committed'] as const;
const allErrorStages = ['extraction', 'commit'];

interface SourceState {
  id: string;
  status: string;
  active: boolean;
}

async function sourceStates(db: Db, ids: string[]): Promise<SourceState[]> {
  const states: SourceState[] = [];
  for (let start = 0; start < ids.length; start += 500) {
    const slice = ids.slice(start, start + 500);
    const rows = await sourceStatuses(db, slice);
    const active = new Set(
      await db('extraction_jobs').whereIn('source_id', slice).whereIn('status', activeJobStatuses).pluck('source_id'),
    );
    states.push(...rows.map((row) => ({ ...row, active: active.has(row.id) })));
  }
  return states;
}

/**
 * The sources a bulk request extracts, checked before anything is queued: exactly one of `source_ids`
 * and `all`; named sources must exist (404), be in a state extraction may start from (400) and, unless
 * `force`, not be extracting already (409). `all` takes every committed or extracted source and every
 * one whose extraction or commit failed, leaving out running ones unless `force`.
 */
export async function bulkTargets(db: Db, request: BulkExtractionRequest): Promise<string[]> {
  const named = request.source_ids !== undefined;
  if (named === Boolean(request.all)) {
    throw new Invalid([
      {
        loc: ['body', 'source_ids'],
        msg: 'Give either source_ids (a non-empty list) or all: true, not both',
        type: 'value_error',
      },
    ]);
  }
  if (!named) {
    const ids = await sourceIdsIn(db, allStatuses, allErrorStages);
    if (request.force) return ids;
    // The running extractions are few: one read of them, not a second pass over every selected source.
    const active = new Set(await db('extraction_jobs').whereIn('status', activeJobStatuses).pluck('source_id'));
    return ids.filter((id) => !active.has(id));
  }
  const ids = [...new Set(request.source_ids)];
  const states = new Map((await sourceStates(db, ids)).map((source) => [source.id, source]));
  const missing = ids.filter((id) => !states.has(id));
  if (missing.length)
    throw new NotFound(`${missing.length} of the sources were not found: ${missing.slice(0, 10).join(', ')}`, {
      resource_type: 'Source',
      missing,
    });
  const running = ids.filter((id) => states.get(id)!.active);
  if (running.length && !request.force)
    throw new Conflict(`${running.length} of the sources are being extracted already; pass force to restart them`, {
      running,
    });
  const refused = ids
    .filter((id) => !states.get(id)!.active && !bulkStartable.includes(states.get(id)!.status))
    .map((id) => ({ source_id: id, status: states.get(id)!.status }));
  if (refused.length)
    throw new BadInput(
      `${refused.length} of the sources cannot be extracted in their state (extraction starts from ${bulkStartable.join(', ')})`,
      { sources: refused },
    );
  return ids;
}

export interface BulkExtractionResult {
  requested: number;
  started: number;
  skipped: { source_id: string; reason: string }[];
}

export interface BulkExtractionProgress {
  total: number;
  not_started: number;
  in_progress: number;
  completed: number;
  failed: number;
  cancelled: number;
  progress_percent: number;
  /** Sources whose new extraction failed, with the reason (at most 100). */
  failures: { source_id: string; error: string | null }[];
}

/** How far the extractions a bulk task started have got: each source by the status of its latest job since the task was created. */
export async function bulkProgress(db: Db, sourceIds: string[], since: string): Promise<BulkExtractionProgress> {
  const latest = new Map<string, { status: JobStatus; error_message: string | null; created_at: string }>();
  for (let start = 0; start < sourceIds.length; start += 500) {
    const rows = await db('extraction_jobs')
      .whereIn('source_id', sourceIds.slice(start, start + 500))
      .where('created_at', '>=', since)
      .select('source_id', 'status', 'error_message', 'created_at');
    for (const row of rows)
      if ((latest.get(row.source_id)?.created_at ?? '') <= row.created_at) latest.set(row.source_id, row);
  }
  const count = (statuses: readonly JobStatus[]) =>
    [...latest.values()].filter((job) => statuses.includes(job.status)).length;
  const completed = count(['completed']);
  const failed = count(['failed']);
  const cancelled = count(['cancelled']);
  const failures = [...latest]
    .filter(([, job]) => job.status === 'failed')
    .slice(0, 100)
    .map(([source_id, job]) => ({ source_id, error: job.error_message }));
  const done = completed + failed + cancelled;
  return {
    total: sourceIds.length,
    not_started: sourceIds.length - latest.size,
    in_progress: count(activeJobStatuses),
    completed,
    failed,
    cancelled,
    progress_percent: sourceIds.length ? Math.round((1000 * done) / sourceIds.length) / 10 : 100,
    failures,
  };
}
