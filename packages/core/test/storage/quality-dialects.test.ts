import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { defaultSettings } from '@rhizome/contracts/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoringVersion } from '../../src/quality/grade.ts';
import { loadSourceGraphs } from '../../src/quality/read-model/source-graphs.ts';
import { corpusGrade, unscoredSourceIds } from '../../src/quality/read-model/scores.ts';
import { QualityService } from '../../src/quality/service.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const json = (value: unknown) => JSON.stringify(value);

/**
 * src_a (biographical): Ada (aliases as a list, two own properties, cited twice in one chunk and once in
 * another, best at 0.9), Charles (aliases a single name, so none counted; confidence stored as a string)
 * and a relationship between them cited at 0.7; src_b (historical): Mary alone; src_c is not committed.
 */
async function seed(db: Db): Promise<void> {
  await db('graph_templates').insert([
    { id: 'person', name: 'Person', template_type: 'node', created_at: at, updated_at: at },
    { id: 'link', name: 'link', template_type: 'edge', created_at: at, updated_at: at },
  ]);
  const source = (id: string, status: SourceStatus, domain: string | null) => ({
    id,
    title: id.toUpperCase(),
    status,
    extraction_domain: domain,
    chunk_count: 2,
    created_at: at,
    updated_at: at,
  });
  await db('sources').insert([
    source('src_a', 'committed', 'biographical'),
    source('src_b', 'committed', 'historical'),
    source('src_c', 'indexed', null),
  ]);
  await db('document_chunks').insert(
    ['ch1', 'ch2'].map((id, index) => ({
      id,
      source_id: 'src_a',
      chunk_index: index,
      content: 'text',
      created_at: at,
    })),
  );
  const node = (id: string, label: string, properties: unknown) => ({
    id,
    template_id: 'person',
    label,
    properties: json(properties),
    extracted: true,
    created_at: at,
    updated_at: at,
  });
  await db('graph_nodes').insert([
    node('ada', 'Ada Lovelace', {
      description: 'Mathematician who wrote the first algorithm — née Byron',
      aliases: ['Augusta Ada King', 'Countess of Lovelace'],
      confidence: 0.5,
      extraction_domain: 'biographical',
      born: '1815',
      field: 'mathematics',
    }),
    node('charles', 'Charles Babbage', { description: 'Engineer', aliases: 'Babbage', confidence: '0.7' }),
    node('mary', 'Mary Somerville', { description: 'Scientist' }),
  ]);
  await db('node_sources').insert([
    { node_id: 'ada', source_id: 'src_a' },
    { node_id: 'charles', source_id: 'src_a' },
    { node_id: 'mary', source_id: 'src_b' },
  ]);
  await db('source_citations').insert(
    [
      ['c1', 'ch1', 0.9],
      ['c2', 'ch1', 0.4],
      ['c3', 'ch2', 0.6],
    ].map(([id, chunk, confidence]) => ({
      id,
      entity_uri: 'ada',
      source_id: 'src_a',
      chunk_id: chunk,
      confidence,
      created_at: at,
    })),
  );
  await db('graph_edges').insert({
    id: 'worked',
    template_id: 'link',
    source_node_id: 'ada',
    target_node_id: 'charles',
    label: 'worked_with',
    properties: json({ justification: 'Ada wrote notes on his engine', confidence: 0.3 }),
    extracted: true,
    created_at: at,
    updated_at: at,
  });
  await db('edge_sources').insert({ edge_id: 'worked', source_id: 'src_a' });
  await db('relationship_citations').insert({
    id: 'rc1',
    edge_id: 'worked',
    source_id: 'src_a',
    chunk_id: 'ch1',
    confidence: 0.7,
    created_at: at,
  });
}

/** What scoring reads of the graph, and the cached scores' read model, give the same answers on both dialects. */
describe.each(dialects)('quality scores on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  let service: QualityService;

  beforeAll(async () => {
    db = await databases.open('quality');
    await seed(db);
    service = new QualityService({ db, settings: defaultSettings });
  }, 120_000);
  afterAll(() => databases.close());

  it("packs each source's entities and relationships with what the formula reads of their properties", async () => {
    const graphs = await loadSourceGraphs(db, ['src_b', 'src_a', 'src_missing']);
    expect(graphs.map((graph) => graph.sourceId).sort()).toEqual(['src_a', 'src_b']);
    const a = graphs.find((graph) => graph.sourceId === 'src_a')!;
    expect(a).toMatchObject({ title: 'SRC_A', domain: 'biographical', chunkCount: 2 });
    const byName = Object.fromEntries(a.entities.map((entity) => [entity.name, entity]));
    expect(byName['Ada Lovelace']).toEqual({
      id: 'ada',
      name: 'Ada Lovelace',
      type: 'Person',
      descriptionLength: 55,
      aliasCount: 2,
      propertyCount: 2,
      chunkCount: 2,
      confidence: 0.9,
    });
    expect(byName['Charles Babbage']).toMatchObject({
      descriptionLength: 8,
      aliasCount: 0,
      propertyCount: 0,
      chunkCount: 0,
      confidence: 0.7,
    });
    expect(a.relationships).toEqual([
      {
        sourceNodeId: 'ada',
        targetNodeId: 'charles',
        type: 'worked_with',
        sourceName: 'Ada Lovelace',
        targetName: 'Charles Babbage',
        justificationLength: 29,
        confidence: 0.7,
      },
    ]);
    const b = graphs.find((graph) => graph.sourceId === 'src_b')!;
    expect(b.entities).toEqual([expect.objectContaining({ name: 'Mary Somerville', confidence: 0, chunkCount: 0 })]);
    expect(b.relationships).toEqual([]);
  });

  it('scores committed sources when first asked, then averages and orders the cached scores', async () => {
    expect(await unscoredSourceIds(db)).toEqual(['src_a', 'src_b']);
    const analysis = await service.analyze({}, { sortBy: 'total_score', direction: 'desc' });
    expect(await unscoredSourceIds(db)).toEqual([]);
    expect(analysis.sources.map((score) => score.source_id)).toEqual(['src_a', 'src_b']);
    expect(analysis.total_sources).toBe(2);
    expect(analysis.avg_score).toBeCloseTo((analysis.sources[0].total_score + analysis.sources[1].total_score) / 2, 6);
    const ascending = await service.analyze(
      { minEntities: 2 },
      { sortBy: 'total_score', direction: 'asc' },
      { offset: 0, limit: 5 },
    );
    expect(ascending.sources.map((score) => score.source_id)).toEqual(['src_a']);
    expect(
      (await service.analyze({ domain: 'historical' }, { sortBy: 'entity_count', direction: 'asc' })).sources,
    ).toEqual([expect.objectContaining({ source_id: 'src_b', source_title: 'SRC_B', domain: 'historical' })]);

    const { domains } = await service.domains();
    expect(domains.map((domain) => [domain.domain, domain.source_count, domain.total_entities])).toEqual([
      ['biographical', 1, 2],
      ['historical', 1, 1],
    ]);
    expect(typeof domains[0].avg_total_score).toBe('number');
    expect(await corpusGrade(db)).toMatchObject({ scored_sources: 2 });
  });

  it('replaces a cached score, and lists older versions and unscored sources as outdated', async () => {
    await db('source_quality_scores').where({ source_id: 'src_b' }).update({ cached_scores_version: 1 });
    expect((await service.outdated()).sources).toEqual([
      { id: 'src_b', title: 'SRC_B', cached_scores_version: 1, current_version: scoringVersion },
    ]);
    await service.refresh('src_b');
    expect((await service.outdated()).outdated_count).toBe(0);
    expect(await db('source_quality_scores').count({ n: '*' }).first()).toEqual({ n: 2 });
  });

  it('reports a source whose graph holds properties that are not JSON, scoring the others', async () => {
    await db('sources').insert({
      id: 'src_bad',
      title: 'Bad',
      status: 'committed',
      extraction_domain: 'historical',
      created_at: at,
      updated_at: at,
    });
    await db('graph_nodes').insert({
      id: 'broken',
      template_id: 'person',
      label: 'Broken',
      properties: '{not json',
      extracted: true,
      created_at: at,
      updated_at: at,
    });
    await db('node_sources').insert({ node_id: 'broken', source_id: 'src_bad' });
    const result = await service.recalculate('historical');
    expect(result).toEqual({
      recalculated_count: 1,
      errors: [{ source_id: 'src_bad', error: expect.stringMatching(/json/i) }],
    });
  });
});
