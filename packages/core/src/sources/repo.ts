import type { SourceStatus } from '@rhizome/contracts/api/sources';
import type { Db } from '../storage/index.ts';

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
  return (await db('sources').where({ id }).first()) as SourceRow | undefined;
}

export async function insertSource(db: Db, row: Partial<SourceRow> & Pick<SourceRow, 'id' | 'created_at' | 'updated_at'>): Promise<void> {
  await db('sources').insert(row);
}

export async function updateSource(db: Db, id: string, changes: Partial<SourceRow>, expectedStatus?: SourceStatus[]): Promise<boolean> {
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
  return (await db('sources').where({ content_hash: contentHash }).orderBy('created_at').first()) as SourceRow | undefined;
}

function filtered(db: Db, filter: SourceFilter) {
  const query = db('sources');
  if (filter.sourceType) query.where('source_type', filter.sourceType);
  if (filter.status) query.where('status', filter.status);
  if (filter.enabled !== undefined) query.where('enabled', filter.enabled ? 1 : 0);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
    query.where((inner) => inner.whereRaw("title LIKE ? ESCAPE '\\'", [pattern]).orWhereRaw("filename LIKE ? ESCAPE '\\'", [pattern]).orWhereRaw("origin_url LIKE ? ESCAPE '\\'", [pattern]));
  }
  if (filter.tagId) query.whereIn('id', db('source_tag_links').select('source_id').where('tag_id', filter.tagId));
  return query;
}

export async function listSources(db: Db, filter: SourceFilter, offset: number, limit: number): Promise<{ rows: SourceRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, filter).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(offset).limit(limit),
    filtered(db, filter).count({ total: '*' }).first(),
  ]);
  return { rows: rows as SourceRow[], total: Number((count as { total: number }).total) };
}

export interface GraphCounts {
  entities: number;
  relationships: number;
}

export async function graphCountsBySource(db: Db, sourceIds: string[]): Promise<Map<string, GraphCounts>> {
  const counts = new Map<string, GraphCounts>(sourceIds.map((id) => [id, { entities: 0, relationships: 0 }]));
  if (!sourceIds.length) return counts;
  const nodes = (await db('node_sources').whereIn('source_id', sourceIds).groupBy('source_id').select('source_id').count({ n: '*' })) as { source_id: string; n: number }[];
  const edges = (await db('edge_sources').whereIn('source_id', sourceIds).groupBy('source_id').select('source_id').count({ n: '*' })) as { source_id: string; n: number }[];
  for (const row of nodes) counts.get(row.source_id)!.entities = Number(row.n);
  for (const row of edges) counts.get(row.source_id)!.relationships = Number(row.n);
  return counts;
}

export interface TagRow {
  id: string;
  name: string;
  color: string | null;
}

export async function tagsBySource(db: Db, sourceIds: string[]): Promise<Map<string, TagRow[]>> {
  const tags = new Map<string, TagRow[]>(sourceIds.map((id) => [id, []]));
  if (!sourceIds.length) return tags;
  const rows = (await db('source_tag_links as l').join('source_tags as t', 't.id', 'l.tag_id').whereIn('l.source_id', sourceIds).orderBy('t.name').select('l.source_id', 't.id', 't.name', 't.color')) as (TagRow & { source_id: string })[];
  for (const { source_id, ...tag } of rows) tags.get(source_id)!.push(tag);
  return tags;
}

export async function sourceStatistics(db: Db): Promise<{ total_files: number; by_status: Record<string, number>; total_chunks: number; total_entities: number; total_relationships: number }> {
  const byStatus = (await db('sources').groupBy('status').select('status').count({ n: '*' })) as { status: string; n: number }[];
  const count = async (table: string, where?: (query: ReturnType<Db>) => void) => {
    const query = db(table);
    where?.(query);
    return Number(((await query.count({ n: '*' }).first()) as { n: number }).n);
  };
  return {
    total_files: byStatus.reduce((sum, row) => sum + Number(row.n), 0),
    by_status: Object.fromEntries(byStatus.map((row) => [row.status, Number(row.n)])),
    total_chunks: await count('document_chunks'),
    // Extraction's items are owned through node_sources / edge_sources; source_id names only a creating source.
    total_entities: await count('graph_nodes', (query) => query.whereNotNull('source_id').orWhereIn('id', db('node_sources').select('node_id'))),
    total_relationships: await count('graph_edges', (query) => query.whereNotNull('source_id').orWhereIn('id', db('edge_sources').select('edge_id'))),
  };
}
