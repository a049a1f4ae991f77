import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DomainPerformanceBody,
  SourceQualityDetailsBody,
  SourceQualityScoreBody,
} from '@rhizome/contracts/api/quality';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

const lovelace = [
  'Ada Lovelace was an English mathematician who was born in London in 1815.',
  'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.',
  'Charles Babbage was a mathematician who designed the Difference Engine at the University of Cambridge.',
  'In 1843 Ada Lovelace published notes on the Analytical Engine with an algorithm for Bernoulli numbers.',
].join(' ');

const fleming = [
  'Alexander Fleming was a Scottish physician who discovered penicillin in London in 1928.',
  "Alexander Fleming worked at St Mary's Hospital in London.",
  'Alexander Fleming shared the Nobel Prize in Medicine with Howard Florey and Ernst Chain in 1945.',
].join(' ');

const labels = ['Outstanding', 'Excellent', 'Good', 'Fair', 'Low'];
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => (values.length ? sum(values) / values.length : 0);

interface Analysis {
  sources: SourceQualityScoreBody[];
  total_sources: number;
  avg_score: number;
  avg_entity_quality: number;
  avg_relationship_quality: number;
}

/** Every field of a SourceQualityScore within its schema range. */
function expectInRange(score: SourceQualityScoreBody): void {
  for (const field of [
    'avg_entity_quality',
    'avg_relationship_quality',
    'quality_grade',
    'density_score',
    'topology_score',
    'coverage_score',
  ] as const) {
    expect(score[field]).toBeGreaterThanOrEqual(0);
    expect(score[field]).toBeLessThanOrEqual(100);
  }
  for (const field of ['connectivity_ratio', 'reciprocal_rate'] as const) expect(score[field]).toBeLessThanOrEqual(1);
  expect(score.pollution_penalty).toBeLessThanOrEqual(15);
  expect(score.structural_penalty).toBeLessThanOrEqual(15);
  expect(score.hub_skew).toBeGreaterThanOrEqual(1);
  expect(score.total_score).toBeCloseTo(
    score.entity_contribution + score.relationship_contribution + score.connectivity_bonus,
    3,
  );
  expect(labels).toContain(score.quality_label);
}

describe('quality scores of sources extracted through the builtin provider', () => {
  let server: TestServer;
  let cookie: string;
  let lovelaceId: string;
  let flemingId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const ok = async <T>(method: string, apiPath: string, body?: unknown, status = 200): Promise<T> => {
    const result = await call(method, apiPath, body);
    expect(result.status, result.text).toBe(status);
    return result.body as T;
  };
  const db = async () => (await server.platform.databases.current()).db;
  const uploadCommitted = async (name: string, content: string, domain: string) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      auto_confirm: 'true',
      domain,
    });
    expect(accepted.status, accepted.text).toBe(202);
    const source = await waitForSource(
      server,
      cookie,
      (accepted.body as SourceResponseBody).id,
      ['committed', 'error'],
      60_000,
    );
    expect(source.status, source.error_message ?? '').toBe('committed');
    return source;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    lovelaceId = (await uploadCommitted('lovelace.txt', lovelace, 'biographical')).id;
    flemingId = (await uploadCommitted('fleming.txt', fleming, 'scientific')).id;
  }, 120_000);
  afterAll(() => server.stop());

  it('caches a score at commit: the source carries its grade and the cache answers GET /quality/sources/{id}', async () => {
    const source = await ok<SourceResponseBody>('GET', `/sources/${lovelaceId}`);
    expect(labels).toContain(source.cached_quality_grade);
    const score = await ok<SourceQualityScoreBody>('GET', `/quality/sources/${lovelaceId}`);
    expectInRange(score);
    expect(score).toMatchObject({
      source_id: lovelaceId,
      source_title: source.title,
      domain: 'biographical',
      quality_label: source.cached_quality_grade,
      quality_grade: source.cached_quality_score,
    });
    expect(score.entity_count).toBe(source.extraction_entities_count);
    expect(score.relationship_count).toBe(source.extraction_relationships_count);
    expect(score.entity_count).toBeGreaterThanOrEqual(3);
    const listed = await ok<{ data: SourceResponseBody[] }>('GET', '/sources');
    expect(listed.data.map((item) => item.cached_quality_grade)).toEqual(expect.arrayContaining([score.quality_label]));

    // The cache answers until a recalculation is forced: a cached row edited behind the service's back shows.
    const database = await db();
    const row = (await database('source_quality_scores').where({ source_id: lovelaceId }).first()) as { score: string };
    await database('source_quality_scores')
      .where({ source_id: lovelaceId })
      .update({ score: JSON.stringify({ ...score, total_score: -1 }) });
    expect((await ok<SourceQualityScoreBody>('GET', `/quality/sources/${lovelaceId}`)).total_score).toBe(-1);
    expect(await ok<SourceQualityScoreBody>('GET', `/quality/sources/${lovelaceId}?force_recalculate=true`)).toEqual(
      JSON.parse(row.score),
    );
    expect((await ok<SourceQualityScoreBody>('GET', `/quality/sources/${lovelaceId}`)).total_score).toBe(
      score.total_score,
    );
  });

  it('explains a grade with every entity and relationship score', async () => {
    const details = await ok<SourceQualityDetailsBody>('GET', `/quality/sources/${lovelaceId}/details`);
    expectInRange(details);
    expect(details.entity_scores).toHaveLength(details.entity_count);
    expect(details.relationship_scores).toHaveLength(details.relationship_count);
    const generic = details.relationship_scores.filter((score) => score.relationship_type === 'related_to').length;
    expect(details.related_to_share).toBeCloseTo(generic / details.relationship_count, 4);
    expect(details.duplicate_rate).toBeGreaterThanOrEqual(0);
    expect(details.vagueness_penalty).toBeGreaterThanOrEqual(0);
    for (const entity of details.entity_scores) {
      expect(entity.total_score).toBeCloseTo(
        entity.description_score +
          entity.confidence_score +
          entity.cross_chunk_score +
          entity.properties_score +
          entity.aliases_score +
          entity.type_value_score,
        3,
      );
      // The biographical domain values an entity type at 20.
      expect(entity.type_value_score).toBe(20);
    }
    for (const relationship of details.relationship_scores) {
      expect(relationship.total_score).toBeCloseTo(
        relationship.justification_score +
          relationship.confidence_score +
          relationship.specificity_score +
          relationship.valid_refs_score,
        3,
      );
      expect(relationship.valid_refs_score).toBe(15);
    }
    expect(details.entity_scores.map((entity) => entity.entity_name)).toEqual(expect.arrayContaining(['Ada Lovelace']));
    expect(details.avg_entity_quality).toBeCloseTo(mean(details.entity_scores.map((entity) => entity.total_score)), 3);
    expect(details.avg_relationship_quality).toBeCloseTo(
      mean(details.relationship_scores.map((relationship) => relationship.total_score)),
      3,
    );
    expect(details.low_quality_entity_count).toBe(
      details.entity_scores.filter((entity) => entity.total_score < 40).length,
    );
    expect(details.entity_contribution).toBeCloseTo(
      sum(details.entity_scores.map((entity) => entity.total_score ** 2 / 100)),
      2,
    );
    const { entity_scores: _entities, relationship_scores: _relationships, ...score } = details;
    expect(await ok('GET', `/quality/sources/${lovelaceId}`)).toEqual(score);
  });

  it('answers 404 in the error envelope for an unknown source', async () => {
    for (const path of ['/quality/sources/src_missing', '/quality/sources/src_missing/details']) {
      const missing = await call('GET', path);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: 'NOT_FOUND', details: { identifier: 'src_missing' } });
    }
    expect((await call('GET', `/quality/sources/${lovelaceId}?force_recalculate=maybe`)).status).toBe(422);
  });

  it("recalculates every committed source or one domain's, and rejects a bad body", async () => {
    expect(await ok('POST', '/quality/recalculate', {})).toEqual({ recalculated_count: 2, errors: [] });
    expect(await ok('POST', '/quality/recalculate', { domain: 'scientific' })).toEqual({
      recalculated_count: 1,
      errors: [],
    });
    expect(await ok('POST', '/quality/recalculate', { domain: 'legal' })).toEqual({
      recalculated_count: 0,
      errors: [],
    });
    const bad = await call('POST', '/quality/recalculate', { domain: 7 });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: 'VALIDATION_FAILED' });
  });

  it('lists scores of an older formula version as outdated until they are recalculated', async () => {
    expect(await ok('GET', '/quality/outdated')).toEqual({ outdated_count: 0, sources: [] });
    // A formula bump leaves the cached rows one version behind: the same as marking a row with the previous version.
    await (await db())('source_quality_scores').where({ source_id: flemingId }).update({ cached_scores_version: 6 });
    const outdated = await ok<{ outdated_count: number; sources: unknown[] }>('GET', '/quality/outdated');
    expect(outdated).toEqual({
      outdated_count: 1,
      sources: [{ id: flemingId, title: 'fleming.txt', cached_scores_version: 6, current_version: 9 }],
    });
    expect(await ok('POST', '/quality/recalculate', { domain: null })).toEqual({ recalculated_count: 2, errors: [] });
    expect((await ok<{ outdated_count: number }>('GET', '/quality/outdated')).outdated_count).toBe(0);
  });

  it('analyzes committed sources with filters (POST) and sorted pages whose averages cover every match (GET)', async () => {
    const all = await ok<Analysis>('POST', '/quality/analyze', {});
    expect(all.total_sources).toBe(2);
    all.sources.forEach(expectInRange);
    expect(all.sources[0].total_score).toBeGreaterThanOrEqual(all.sources[1].total_score);
    expect(all.avg_score).toBeCloseTo(mean(all.sources.map((source) => source.total_score)), 6);
    expect(all.avg_entity_quality).toBeCloseTo(mean(all.sources.map((source) => source.avg_entity_quality)), 6);
    expect(
      (await ok<Analysis>('POST', '/quality/analyze', { source_ids: [flemingId] })).sources.map(
        (source) => source.source_id,
      ),
    ).toEqual([flemingId]);
    expect(
      (await ok<Analysis>('POST', '/quality/analyze', { domain: 'biographical' })).sources.map(
        (source) => source.source_id,
      ),
    ).toEqual([lovelaceId]);
    expect(await ok('POST', '/quality/analyze', { min_entities: 100_000 })).toEqual({
      sources: [],
      total_sources: 0,
      avg_score: 0,
      avg_entity_quality: 0,
      avg_relationship_quality: 0,
    });
    expect((await call('POST', '/quality/analyze', { min_entities: -1 })).status).toBe(422);

    const page = await ok<Analysis & { pagination: Record<string, unknown> }>(
      'GET',
      '/quality/analyze?sort_by=entity_count&sort_order=asc&page_size=1',
    );
    const fewest = [...all.sources].sort(
      (a, b) => a.entity_count - b.entity_count || a.source_id.localeCompare(b.source_id),
    )[0];
    expect(page.sources.map((source) => source.source_id)).toEqual([fewest.source_id]);
    expect(page.pagination).toEqual({
      total: 2,
      page: 1,
      page_size: 1,
      total_pages: 2,
      has_next: true,
      has_prev: false,
    });
    expect(page.avg_score).toBeCloseTo(all.avg_score, 6);
    const second = await ok<Analysis>('GET', '/quality/analyze?sort_by=entity_count&sort_order=asc&page_size=1&page=2');
    expect(second.sources.map((source) => source.source_id)).not.toEqual(
      page.sources.map((source) => source.source_id),
    );
    expect(
      (await ok<Analysis>('GET', '/quality/analyze?domain=scientific')).sources.map((source) => source.source_id),
    ).toEqual([flemingId]);
    expect((await call('GET', '/quality/analyze?sort_by=title')).status).toBe(422);
    expect((await call('GET', '/quality/analyze?sort_order=up')).status).toBe(422);
  });

  it('averages per domain (best first) and summarises the corpus with its top and bottom sources', async () => {
    const scores = (await ok<Analysis>('POST', '/quality/analyze', {})).sources;
    const { domains } = await ok<{ domains: DomainPerformanceBody[] }>('GET', '/quality/domains');
    expect(domains.map((domain) => domain.domain).sort()).toEqual(['biographical', 'scientific']);
    expect(domains[0].avg_total_score).toBeGreaterThanOrEqual(domains[1].avg_total_score);
    const lovelaceScore = scores.find((score) => score.source_id === lovelaceId)!;
    expect(domains.find((domain) => domain.domain === 'biographical')).toEqual({
      domain: 'biographical',
      source_count: 1,
      avg_total_score: lovelaceScore.total_score,
      avg_entity_quality: lovelaceScore.avg_entity_quality,
      avg_relationship_quality: lovelaceScore.avg_relationship_quality,
      avg_connectivity_ratio: lovelaceScore.connectivity_ratio,
      total_entities: lovelaceScore.entity_count,
      total_relationships: lovelaceScore.relationship_count,
    });

    const summary = await ok<
      Record<string, unknown> & { top_sources: SourceQualityScoreBody[]; bottom_sources: SourceQualityScoreBody[] }
    >('GET', '/quality/summary');
    expect(summary).toMatchObject({
      total_sources: 2,
      total_entities: sum(scores.map((score) => score.entity_count)),
      total_relationships: sum(scores.map((score) => score.relationship_count)),
    });
    expect(summary.avg_quality_grade).toBeCloseTo(mean(scores.map((score) => score.quality_grade)), 6);
    expect(summary.avg_connectivity_ratio).toBeCloseTo(mean(scores.map((score) => score.connectivity_ratio)), 6);
    expect(summary.top_sources.map((score) => score.source_id)).toEqual(scores.map((score) => score.source_id));
    expect(summary.bottom_sources.map((score) => score.source_id)).toEqual(
      [...scores].reverse().map((score) => score.source_id),
    );

    const dashboard = await ok<{
      quality: { scored_sources: number; avg_quality_grade: number; quality_label: string };
    }>('GET', '/system/dashboard');
    expect(dashboard.quality.scored_sources).toBe(2);
    expect(dashboard.quality.avg_quality_grade).toBeCloseTo(summary.avg_quality_grade as number, 2);
    expect(labels).toContain(dashboard.quality.quality_label);
  });

  it('commits a source even when its score cannot be cached, and lists it as never scored', async () => {
    const database = await db();
    await ok('POST', '/system/processing/pause', { reason: 'quality test' });
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [
        {
          name: 'hopper.txt',
          content:
            'Grace Hopper was an American computer scientist who was born in New York in 1906. Grace Hopper worked at Harvard University on the Mark I computer.',
        },
      ],
      { auto_confirm: 'true', domain: 'biographical' },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const id = (accepted.body as SourceResponseBody).id;
    // The cache table gone for the commit: scoring fails for real (source reads need the table, so the status is read from SQLite).
    await database.raw('ALTER TABLE source_quality_scores RENAME TO source_quality_scores_away');
    try {
      await ok('POST', '/system/processing/resume');
      const status = await until(
        async () => {
          const row = (await database('sources').where({ id }).first('status')) as { status: string };
          return ['committed', 'error'].includes(row.status) ? row.status : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 50, what: `source ${id} to settle` },
      );
      expect(status).toBe('committed');
    } finally {
      await database.raw('ALTER TABLE source_quality_scores_away RENAME TO source_quality_scores');
    }
    expect((await ok<SourceResponseBody>('GET', `/sources/${id}`)).cached_quality_grade).toBeNull();
    expect(
      (await ok<{ sources: { id: string; cached_scores_version: number | null }[] }>('GET', '/quality/outdated'))
        .sources,
    ).toEqual([expect.objectContaining({ id, cached_scores_version: null })]);
    expect(await ok('POST', '/quality/recalculate', { domain: 'biographical' })).toEqual({
      recalculated_count: 2,
      errors: [],
    });
    expect(labels).toContain((await ok<SourceResponseBody>('GET', `/sources/${id}`)).cached_quality_grade);
  });

  it('leaves a deleted source out of every corpus figure', async () => {
    expect((await call('DELETE', `/sources/${flemingId}`)).status).toBe(204);
    expect(await (await db())('source_quality_scores').where({ source_id: flemingId }).first()).toBeUndefined();
    expect((await ok<{ total_sources: number }>('GET', '/quality/summary')).total_sources).toBe(2);
    expect((await call('GET', `/quality/sources/${flemingId}`)).status).toBe(404);
  });
});
