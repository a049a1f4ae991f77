import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { caselessLike, containingPattern, type Db } from '../storage/index.ts';

/** A sources row as stored (booleans as 0/1, JSON columns as text). */
export interface SourceRow {
  id: string;
  title: string | null;
  filename: string | null;
  source_type: string;
  origin_url: string | null;
  status: SourceStatus;
  enabled: number;
  extraction_domain: string | null;
  file_type: string | null;
  file_size: number | null;
  content_type: string | null;
  content_hash: string | null;
  stored_filename: string | null;
  extract_entities: number;
  analysis_depth: 'full' | 'quick';
  forced_domain: string | null;
  auto_confirm: number;
  enable_normalization: number | null;
  enable_vision: number | null;
  content_filtering: number;
  filtering_mode: string | null;
  enable_direction_correction: number | null;
  protect_orphans: number | null;
  enable_inverse_relationships: number | null;
  max_entity_degree_override: number | null;
  detection_proposal: string | null;
  pending_confirmation: string | null;
  extraction_confirmed_at: string | null;
  extraction_queued_at: string | null;
  extraction_job_id: string | null;
  estimated_tokens: number | null;
  estimated_cost_usd: number | null;
  current_step: string | null;
  step_description: string | null;
  error_stage: string | null;
  error_message: string | null;
  indexing_started_at: string | null;
  indexing_completed_at: string | null;
  extraction_started_at: string | null;
  extraction_completed_at: string | null;
  commit_started_at: string | null;
  commit_completed_at: string | null;
  last_activity_at: string | null;
  recovery_attempts: number;
  active_task_id: string | null;
  chunk_count: number;
  embedded_chunk_count: number;
  embedding_model: string | null;
  embedding_dimensions: number | null;
  index_timings: string | null;
  loader_warnings: string | null;
  user_metadata: string;
  created_at: string;
  updated_at: string;
}

export interface SourceFilter {
  sourceType?: string;
  status?: SourceStatus;
  enabled?: boolean;
  search?: string;
  tagId?: string;
}

export async function getSource(db: Db, id: string): Promise<SourceRow | undefined> {
  return db('sources').where({ id }).first();
}

export async function insertSource(
  db: Db,
  row: Partial<SourceRow> & Pick<SourceRow, 'id' | 'created_at' | 'updated_at'>,
): Promise<void> {
  await db('sources').insert(row);
}

export async function updateSource(
  db: Db,
  id: string,
  changes: Partial<SourceRow>,
  expectedStatus?: SourceStatus[],
): Promise<boolean> {
  const query = db('sources').where({ id });
  if (expectedStatus) query.whereIn('status', expectedStatus);
  return (await query.update({ ...changes, updated_at: changes.updated_at ?? new Date().toISOString() })) > 0;
}

/** The source's loader warnings (a JSON array) with `warning` added once. */
export function withLoaderWarning(row: Pick<SourceRow, 'loader_warnings'>, warning: string): string {
  const warnings = row.loader_warnings ? (JSON.parse(row.loader_warnings) as string[]) : [];
  return JSON.stringify(warnings.includes(warning) ? warnings : [...warnings, warning]);
}

export async function findByContentHash(db: Db, contentHash: string): Promise<SourceRow | undefined> {
  return db('sources').where({ content_hash: contentHash }).orderBy('created_at').first();
}

function filtered(db: Db, filter: SourceFilter) {
  const query = db('sources');
  if (filter.sourceType) query.where('source_type', filter.sourceType);
  if (filter.status) query.where('status', filter.status);
  if (filter.enabled !== undefined) query.where('enabled', filter.enabled ? 1 : 0);
  if (filter.search) {
    const pattern = containingPattern(filter.search);
    query.where((inner) =>
      inner
        .where(caselessLike(db, 'title', pattern))
        .orWhere(caselessLike(db, 'filename', pattern))
        .orWhere(caselessLike(db, 'origin_url', pattern)),
    );
  }
  if (filter.tagId) query.whereIn('id', db('source_tag_links').select('source_id').where('tag_id', filter.tagId));
  return query;
}

export async function listSources(
  db: Db,
  filter: SourceFilter,
  offset: number,
  limit: number,
): Promise<{ rows: SourceRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, filter)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .offset(offset)
      .limit(limit),
    filtered(db, filter).count({ total: '*' }).first(),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

/** Sources in one of `statuses` with no activity since `before` (an ISO time). */
export async function idleSources(db: Db, statuses: readonly SourceStatus[], before: string): Promise<SourceRow[]> {
  return db('sources')
    .whereIn('status', statuses)
    .where((query) => query.whereNull('last_activity_at').orWhere('last_activity_at', '<', before));
}

/** The ids and statuses of the given sources that exist. */
export async function sourceStatuses(db: Db, ids: readonly string[]): Promise<{ id: string; status: SourceStatus }[]> {
  return db('sources').whereIn('id', ids).select('id', 'status');
}

/** Sources in one of `statuses` or in error at one of `errorStages`, oldest first. */
export async function sourceIdsIn(
  db: Db,
  statuses: readonly SourceStatus[],
  errorStages: readonly string[],
): Promise<string[]> {
  return db('sources')
    .where((query) =>
      query
        .whereIn('status', statuses)
        .orWhere((errored) => errored.where({ status: 'error' }).whereIn('error_stage', errorStages)),
    )
    .orderBy('created_at')
    .pluck('id');
}

/** Whether any source is being indexed, described or extracted right now. */
export async function sourcesInProgress(db: Db): Promise<boolean> {
  return (
    (await db('sources').whereIn('status', ['indexing', 'vision_pending', 'extracting', 'committing']).first('id')) !==
    undefined
  );
}

export interface TagRow {
  id: string;
  name: string;
  color: string | null;
}

export async function tagsBySource(db: Db, sourceIds: string[]): Promise<Map<string, TagRow[]>> {
  const tags = new Map<string, TagRow[]>(sourceIds.map((id) => [id, []]));
  if (!sourceIds.length) return tags;
  const rows: (TagRow & { source_id: string })[] = await db('source_tag_links as l')
    .join('source_tags as t', 't.id', 'l.tag_id')
    .whereIn('l.source_id', sourceIds)
    .orderBy('t.name')
    .select('l.source_id', 't.id', 't.name', 't.color');
  for (const { source_id, ...tag } of rows) tags.get(source_id)!.push(tag);
  return tags;
}

/** How many sources there are, by status, and how many chunks they have. */
export async function sourceTotals(
  db: Db,
): Promise<{ total_files: number; by_status: Record<string, number>; total_chunks: number }> {
  const byStatus: { status: string; n: number | string }[] = await db('sources')
    .groupBy('status')
    .select('status')
    .count({ n: '*' });
  const chunks = await db('document_chunks').count({ n: '*' }).first();
  return {
    total_files: byStatus.reduce((sum, row) => sum + Number(row.n), 0),
    by_status: Object.fromEntries(byStatus.map((row) => [row.status, Number(row.n)])),
    total_chunks: Number(chunks?.n ?? 0),
  };
}
