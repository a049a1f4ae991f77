/**
 * The cached scores read together with the sources feature's `sources`: a score shows its source's
 * current title and domain, and only committed sources count; one join per query instead of a lookup
 * per score.
 */
import type {
  AnalysisSortField,
  DomainPerformanceBody,
  QualityLabel,
  SourceQualityScoreBody,
} from '@rhizome/contracts/api/quality';
import type { Knex } from 'knex';
import type { Db } from '../../storage/index.ts';
import { qualityLabel, scoringVersion } from '../grade.ts';

const table = 'source_quality_scores';

/** Which committed sources a corpus query covers. */
export interface ScoreFilter {
  sourceIds?: string[] | null;
  domain?: string | null;
  minEntities?: number;
}

export interface ScoreOrder {
  sortBy: AnalysisSortField;
  direction: 'asc' | 'desc';
}

export interface CorpusAverages {
  total_sources: number;
  total_entities: number;
  total_relationships: number;
  avg_total_score: number;
  avg_entity_quality: number;
  avg_relationship_quality: number;
  avg_quality_grade: number;
  avg_connectivity_ratio: number;
}

interface CachedRow {
  score: string;
  title: string | null;
  extraction_domain: string | null;
}

/** The cached score as stored, with the source's current title and domain (a rename does not make a score stale). */
const fromRow = (row: CachedRow): SourceQualityScoreBody => ({
  ...(JSON.parse(row.score) as SourceQualityScoreBody),
  source_title: row.title,
  domain: row.extraction_domain,
});

export async function cachedScore(db: Db, sourceId: string): Promise<SourceQualityScoreBody | undefined> {
  const row = (await db(`${table} as q`)
    .join('sources as s', 's.id', 'q.source_id')
    .where('q.source_id', sourceId)
    .first('q.score', 's.title', 's.extraction_domain')) as CachedRow | undefined;
  return row && fromRow(row);
}

/** Committed sources, optionally of one domain, as a query of their ids. */
export function committedSources(db: Db, domain?: string | null): Knex.QueryBuilder {
  const query = db('sources').where('status', 'committed');
  if (domain) query.where('extraction_domain', domain);
  return query;
}

/** Committed sources (of the domain, if given) with no cached score. */
export async function unscoredSourceIds(db: Db, domain?: string | null): Promise<string[]> {
  const rows = (await committedSources(db, domain)
    .whereNotExists(db(table).whereRaw(`${table}.source_id = sources.id`))
    .orderBy('id')
    .select('id')) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Committed sources never scored or scored by another formula version. */
export async function outdatedSources(
  db: Db,
): Promise<{ id: string; title: string | null; cached_scores_version: number | null }[]> {
  return (await committedSources(db)
    .leftJoin(`${table} as q`, 'q.source_id', 'sources.id')
    .where((inner) => inner.whereNull('q.cached_scores_version').orWhereNot('q.cached_scores_version', scoringVersion))
    .orderBy('sources.created_at')
    .orderBy('sources.id')
    .select('sources.id', 'sources.title', 'q.cached_scores_version')) as {
    id: string;
    title: string | null;
    cached_scores_version: number | null;
  }[];
}

function matching(db: Db, filter: ScoreFilter): Knex.QueryBuilder {
  const query = db(`${table} as q`).join('sources as s', 's.id', 'q.source_id').where('s.status', 'committed');
  if (filter.domain) query.where('s.extraction_domain', filter.domain);
  if (filter.minEntities) query.where('q.entity_count', '>=', filter.minEntities);
  if (filter.sourceIds) query.whereIn('q.source_id', filter.sourceIds);
  return query;
}

const averageColumns = [
  'COUNT(*) AS total_sources',
  'COALESCE(SUM(q.entity_count), 0) AS total_entities',
  'COALESCE(SUM(q.relationship_count), 0) AS total_relationships',
  'COALESCE(AVG(q.total_score), 0) AS avg_total_score',
  'COALESCE(AVG(q.avg_entity_quality), 0) AS avg_entity_quality',
  'COALESCE(AVG(q.avg_relationship_quality), 0) AS avg_relationship_quality',
  'COALESCE(AVG(q.quality_grade), 0) AS avg_quality_grade',
  'COALESCE(AVG(q.connectivity_ratio), 0) AS avg_connectivity_ratio',
].join(', ');

/** Counts, totals and averages over every cached score the filter matches. */
export async function corpusAverages(db: Db, filter: ScoreFilter = {}): Promise<CorpusAverages> {
  const row = (await matching(db, filter).select(db.raw(averageColumns)).first()) as Record<
    keyof CorpusAverages,
    number
  >;
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Number(value)]),
  ) as unknown as CorpusAverages;
}

/** Cached scores the filter matches, in the given order (ties by source id), optionally one window of them. */
export async function listScores(
  db: Db,
  filter: ScoreFilter,
  order: ScoreOrder,
  window?: { offset: number; limit: number },
): Promise<SourceQualityScoreBody[]> {
  const query = matching(db, filter)
    .orderBy(`q.${order.sortBy}`, order.direction)
    .orderBy('q.source_id')
    .select('q.score', 's.title', 's.extraction_domain');
  if (window) query.offset(window.offset).limit(window.limit);
  return ((await query) as CachedRow[]).map(fromRow);
}

/** Averages per extraction domain, best average total score first. */
export async function domainAverages(db: Db): Promise<DomainPerformanceBody[]> {
  const rows = (await matching(db, {})
    .groupBy('s.extraction_domain')
    .orderBy('avg_total_score', 'desc')
    .orderBy('s.extraction_domain')
    .select('s.extraction_domain as domain', db.raw(averageColumns))) as (Record<string, number> & {
    domain: string | null;
  })[];
  return rows.map((row) => ({
    domain: row.domain,
    source_count: Number(row.total_sources),
    avg_total_score: row.avg_total_score,
    avg_entity_quality: row.avg_entity_quality,
    avg_relationship_quality: row.avg_relationship_quality,
    avg_connectivity_ratio: row.avg_connectivity_ratio,
    total_entities: Number(row.total_entities),
    total_relationships: Number(row.total_relationships),
  }));
}

/** The dashboard's corpus grade: the mean cached grade of the committed sources (nothing is computed here). */
export async function corpusGrade(
  db: Db,
): Promise<{ scored_sources: number; avg_quality_grade: number; quality_label: QualityLabel | null }> {
  const averages = await corpusAverages(db);
  const grade = Math.round(averages.avg_quality_grade * 100) / 100;
  return {
    scored_sources: averages.total_sources,
    avg_quality_grade: grade,
    quality_label: averages.total_sources ? qualityLabel(grade) : null,
  };
}
