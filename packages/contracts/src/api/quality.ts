import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Nullable, OneOf, PageQuery, Pagination } from './common.ts';

/** A score or share between 0 and `maximum`. */
const upTo = (maximum: number) => Type.Number({ minimum: 0, maximum });

const tag = 'quality';

export const qualityLabels = ['Outstanding', 'Excellent', 'Good', 'Fair', 'Low'] as const;
export type QualityLabel = (typeof qualityLabels)[number];

/** The quality of one source: its grade, the richness score and everything that explains them. */
export const SourceQualityScore = Type.Object({
  source_id: Type.String(),
  source_title: Nullable(Type.String()),
  domain: Nullable(Type.String()),
  entity_count: Type.Integer(),
  relationship_count: Type.Integer(),
  entity_contribution: Type.Number(),
  relationship_contribution: Type.Number(),
  connectivity_bonus: Type.Number(),
  total_score: Type.Number({ description: 'Unbounded richness: grows with the volume of good items' }),
  avg_entity_quality: upTo(100),
  avg_relationship_quality: upTo(100),
  connectivity_ratio: upTo(1),
  quality_grade: Type.Number({ minimum: 0, maximum: 100, description: 'Independent of volume' }),
  quality_label: OneOf(qualityLabels),
  low_quality_entity_count: Type.Integer(),
  low_quality_relationship_count: Type.Integer(),
  density_ratio: Type.Number(),
  density_score: upTo(100),
  topology_score: upTo(100),
  pollution_penalty: upTo(15),
  structural_penalty: upTo(15),
  hub_skew: Type.Number({ minimum: 1 }),
  reciprocal_rate: upTo(1),
  coverage_score: upTo(100),
  related_to_share: upTo(1),
  duplicate_rate: upTo(1),
  vagueness_penalty: upTo(15),
});
export type SourceQualityScoreBody = Static<typeof SourceQualityScore>;

export const EntityQualityScore = Type.Object({
  entity_name: Type.String(),
  entity_type: Type.String(),
  description_score: upTo(20),
  confidence_score: upTo(15),
  cross_chunk_score: upTo(15),
  properties_score: upTo(15),
  aliases_score: upTo(10),
  type_value_score: upTo(25),
  total_score: upTo(100),
});
export type EntityQualityScoreBody = Static<typeof EntityQualityScore>;

export const RelationshipQualityScore = Type.Object({
  relationship_type: Type.String(),
  source_entity: Type.String(),
  target_entity: Type.String(),
  justification_score: upTo(35),
  confidence_score: upTo(25),
  specificity_score: upTo(25),
  valid_refs_score: upTo(15),
  total_score: upTo(100),
});
export type RelationshipQualityScoreBody = Static<typeof RelationshipQualityScore>;

export const SourceQualityDetails = Type.Intersect([
  SourceQualityScore,
  Type.Object({
    entity_scores: Type.Array(EntityQualityScore),
    relationship_scores: Type.Array(RelationshipQualityScore),
  }),
]);
export type SourceQualityDetailsBody = Static<typeof SourceQualityDetails>;

export const DomainPerformance = Type.Object({
  domain: Nullable(Type.String()),
  source_count: Type.Integer(),
  avg_total_score: Type.Number(),
  avg_entity_quality: Type.Number(),
  avg_relationship_quality: Type.Number(),
  avg_connectivity_ratio: Type.Number(),
  total_entities: Type.Integer(),
  total_relationships: Type.Integer(),
});
export type DomainPerformanceBody = Static<typeof DomainPerformance>;

const AnalysisAverages = {
  sources: Type.Array(SourceQualityScore),
  total_sources: Type.Integer(),
  avg_score: Type.Number({ description: 'Mean total_score of every matching source' }),
  avg_entity_quality: Type.Number(),
  avg_relationship_quality: Type.Number(),
};

export const analysisSortFields = [
  'total_score',
  'avg_entity_quality',
  'avg_relationship_quality',
  'entity_count',
] as const;
export type AnalysisSortField = (typeof analysisSortFields)[number];

const SourceId = Type.Object({ source_id: Type.String() });
const Recalculate = Type.Object({ force_recalculate: Type.Optional(Type.Boolean({ default: false })) });
const MinEntities = Type.Integer({ minimum: 0, default: 0 });

export const qualityEndpoints = {
  source: endpoint({
    method: 'GET',
    path: '/quality/sources/{source_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      'Quality score of a source (the cached one unless force_recalculate; computed and cached when it has none)',
    params: SourceId,
    query: Recalculate,
    response: SourceQualityScore,
  }),
  details: endpoint({
    method: 'GET',
    path: '/quality/sources/{source_id}/details',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Quality score of a source, always calculated, with the score of every entity and relationship',
    params: SourceId,
    query: Recalculate,
    response: SourceQualityDetails,
  }),
  recalculate: endpoint({
    method: 'POST',
    path: '/quality/recalculate',
    tag,
    status: 200,
    errors: [422],
    summary:
      'Recalculate and cache the scores of every committed source (or of one domain); per-source errors are reported, not fatal',
    body: Body({ domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))) }),
    response: Type.Object({
      recalculated_count: Type.Integer(),
      errors: Type.Array(Type.Object({ source_id: Type.String(), error: Type.String() })),
    }),
  }),
  outdated: endpoint({
    method: 'GET',
    path: '/quality/outdated',
    tag,
    status: 200,
    summary: 'Committed sources never scored or scored by an older formula version',
    response: Type.Object({
      outdated_count: Type.Integer(),
      sources: Type.Array(
        Type.Object({
          id: Type.String(),
          title: Nullable(Type.String()),
          cached_scores_version: Nullable(Type.Integer()),
          current_version: Type.Integer(),
        }),
      ),
    }),
  }),
  analyze: endpoint({
    method: 'POST',
    path: '/quality/analyze',
    tag,
    status: 200,
    errors: [404, 422],
    summary:
      'Scores of committed sources (all, or the given ids), filtered by domain and minimum entity count, by total_score descending',
    body: Body({
      source_ids: Type.Optional(Nullable(Type.Array(Type.String(), { maxItems: 10_000 }))),
      domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
      min_entities: Type.Optional(MinEntities),
    }),
    response: Type.Object(AnalysisAverages),
  }),
  analyzePage: endpoint({
    method: 'GET',
    path: '/quality/analyze',
    tag,
    status: 200,
    errors: [422],
    summary: "One page of committed sources' scores, sorted; the averages cover every match",
    query: Type.Object({
      domain: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      min_entities: Type.Optional(MinEntities),
      ...PageQuery,
      sort_by: Type.Optional(OneOf(analysisSortFields)),
      sort_order: Type.Optional(OneOf(['asc', 'desc'] as const)),
    }),
    response: Type.Object({ ...AnalysisAverages, pagination: Pagination }),
  }),
  domains: endpoint({
    method: 'GET',
    path: '/quality/domains',
    tag,
    status: 200,
    summary: 'Average scores per extraction domain, best first',
    response: Type.Object({ domains: Type.Array(DomainPerformance) }),
  }),
  summary: endpoint({
    method: 'GET',
    path: '/quality/summary',
    tag,
    status: 200,
    summary: 'Corpus totals and averages with the five richest and five poorest sources',
    response: Type.Object({
      total_sources: Type.Integer(),
      total_entities: Type.Integer(),
      total_relationships: Type.Integer(),
      avg_total_score: Type.Number(),
      avg_entity_quality: Type.Number(),
      avg_relationship_quality: Type.Number(),
      avg_quality_grade: Type.Number(),
      avg_connectivity_ratio: Type.Number(),
      top_sources: Type.Array(SourceQualityScore, { maxItems: 5 }),
      bottom_sources: Type.Array(SourceQualityScore, { maxItems: 5 }),
    }),
  }),
};
