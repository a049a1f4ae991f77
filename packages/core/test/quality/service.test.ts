import type { SourceStatus } from '@rhizome/contracts/api/sources';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSettings } from '@rhizome/contracts/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoringVersion } from '../../src/quality/grade.ts';
import { corpusGrade } from '../../src/quality/read-model/scores.ts';
import { cachedGrades } from '../../src/sources/read-model.ts';
import { loadSourceGraphs } from '../../src/quality/read-model/source-graphs.ts';
import { QualityService } from '../../src/quality/service.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

const at = new Date().toISOString();
const json = (value: unknown) => JSON.stringify(value);

/**
 * src_a (biographical, committed): Marie (120-character description, 2 aliases, 3 own properties, cited in
 * 3 chunks at best 0.9) and Pierre (5 characters, no citation: the node's confidence 0.6), married (45
 * characters of justification, cited at 0.8), and Marie "knows" a node only src_b holds.
 * src_b (historical, committed) holds that node alone, with no relationship; src_c is not committed.
 */
async function seed(db: Db): Promise<void> {
  await db('graph_templates').insert([
    { id: 'person', name: 'Person', template_type: 'node', created_at: at, updated_at: at },
    { id: 'link', name: 'link', template_type: 'edge', created_at: at, updated_at: at },
  ]);
  const source = (id: string, status: SourceStatus, domain: string | null, chunkCount: number) => ({
    id,
    title: id.toUpperCase(),
    status,
    extraction_domain: domain,
    chunk_count: chunkCount,
    created_at: at,
    updated_at: at,
  });
  await db('sources').insert([
    source('src_a', 'committed', 'biographical', 3),
    source('src_b', 'committed', 'historical', 1),
    source('src_c', 'indexed', null, 1),
  ]);
  await db('document_chunks').insert(
    ['ch1', 'ch2', 'ch3'].map((id, index) => ({
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
    node('marie', 'Marie Curie', {
      description: 'x'.repeat(120),
      aliases: ['Maria Skłodowska', 'Madame Curie'],
      confidence: 0.5,
      extraction_domain: 'biographical',
      born: '1867',
      field: 'physics',
      nationality: 'Polish',
    }),
    node('pierre', 'Pierre Curie', { description: 'short', confidence: 0.6 }),
    node('other', 'Henri Becquerel', { description: 'physicist' }),
  ]);
  await db('node_sources').insert([
    { node_id: 'marie', source_id: 'src_a' },
    { node_id: 'pierre', source_id: 'src_a' },
    { node_id: 'other', source_id: 'src_b' },
  ]);
  await db('source_citations').insert(
    [
      ['ch1', 0.9],
      ['ch2', 0.7],
      ['ch3', 0.8],
      ['ch3', 0.2],
    ].map(([chunk, confidence], index) => ({
      id: `cit${index}`,
      entity_uri: 'marie',
      source_id: 'src_a',
      chunk_id: chunk,
      confidence,
      created_at: at,
    })),
  );
  const edge = (id: string, from: string, to: string, label: string, properties: unknown) => ({
    id,
    template_id: 'link',
    source_node_id: from,
    target_node_id: to,
    label,
    properties: json(properties),
    extracted: true,
    created_at: at,
    updated_at: at,
  });
  await db('graph_edges').insert([
    edge('married', 'marie', 'pierre', 'married_to', { justification: 'j'.repeat(45), confidence: 0.4 }),
    edge('knows', 'marie', 'other', 'knows', {}),
  ]);
  await db('edge_sources').insert([
    { edge_id: 'married', source_id: 'src_a' },
    { edge_id: 'knows', source_id: 'src_a' },
  ]);
  await db('relationship_citations').insert({
    id: 'rcit',
    edge_id: 'married',
    source_id: 'src_a',
    chunk_id: 'ch1',
    confidence: 0.8,
    created_at: at,
  });
}

describe('quality scores of a database', () => {
  let db: Db;
  let service: QualityService;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quality-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    await seed(db);
    service = new QualityService({ db, settings: defaultSettings });
  });
  afterAll(() => db.destroy());

  it('loads what the formula needs from the committed graph: own properties, distinct citing chunks, the best citation confidence', async () => {
    const [a] = await loadSourceGraphs(db, ['src_a']);
    expect(a).toMatchObject({ sourceId: 'src_a', title: 'SRC_A', domain: 'biographical', chunkCount: 3 });
    const byName = Object.fromEntries(a.entities.map((entity) => [entity.name, entity]));
    expect(byName['Marie Curie']).toMatchObject({
      type: 'Person',
      descriptionLength: 120,
      aliasCount: 2,
      propertyCount: 3,
      confidence: 0.9,
      chunkCount: 3,
    });
    expect(byName['Pierre Curie']).toMatchObject({
      descriptionLength: 5,
      aliasCount: 0,
      propertyCount: 0,
      confidence: 0.6,
      chunkCount: 0,
    });
    const byType = Object.fromEntries(a.relationships.map((relationship) => [relationship.type, relationship]));
    expect(byType.married_to).toMatchObject({
      sourceName: 'Marie Curie',
      targetName: 'Pierre Curie',
      justificationLength: 45,
      confidence: 0.8,
    });
    expect(byType.knows).toMatchObject({ targetNodeId: 'other', justificationLength: 0, confidence: 0 });
    expect(await loadSourceGraphs(db, ['src_missing'])).toEqual([]);
  });

  it("scores a source with its domain's values and caches the score with the formula version", async () => {
    const details = await service.sourceDetails('src_a');
    // Marie: 14 + 13.5 + 12 + 10 + 8 + 20 (biographical type value); Pierre: 3 + 9 + 7 + 0 + 0 + 20.
    expect(details.entity_scores.map((entity) => [entity.entity_name, entity.total_score])).toEqual(
      expect.arrayContaining([
        ['Marie Curie', 77.5],
        ['Pierre Curie', 39],
      ]),
    );
    // married_to: 30 + 20 + 15 + 15; knows: 5 + 0 + 15 + 8 (its target belongs to another source).
    expect(
      details.relationship_scores.map((relationship) => [relationship.relationship_type, relationship.total_score]),
    ).toEqual(
      expect.arrayContaining([
        ['married_to', 80],
        ['knows', 28],
      ]),
    );
    expect(details).toMatchObject({
      entity_count: 2,
      relationship_count: 2,
      avg_entity_quality: 58.25,
      avg_relationship_quality: 54,
      low_quality_entity_count: 1,
      low_quality_relationship_count: 1,
    });
    const row = (await db('source_quality_scores').where({ source_id: 'src_a' }).first()) as {
      cached_scores_version: number;
      quality_grade: number;
      score: string;
    };
    expect(row.cached_scores_version).toBe(scoringVersion);
    expect(row.quality_grade).toBe(details.quality_grade);
    expect(JSON.parse(row.score)).not.toHaveProperty('entity_scores');
  });

  it("answers from the cache until asked to recalculate, with the source's current title", async () => {
    const before = await service.sourceScore('src_a');
    await db('graph_edges').where({ id: 'knows' }).delete();
    await db('sources').where({ id: 'src_a' }).update({ title: 'Renamed' });
    expect(await service.sourceScore('src_a')).toEqual({ ...before, source_title: 'Renamed' });
    const fresh = await service.sourceScore('src_a', true);
    expect(fresh).toMatchObject({ relationship_count: 1, source_title: 'Renamed' });
    expect(fresh).not.toHaveProperty('entity_scores');
    await expect(service.sourceScore('src_missing')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('recalculates every committed source, reporting a source that cannot be scored without failing the rest', async () => {
    await db('sources').insert({
      id: 'src_bad',
      title: 'Bad',
      status: 'committed',
      extraction_domain: 'biographical',
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
    const result = await service.recalculate();
    expect(result.recalculated_count).toBe(2);
    expect(result.errors).toEqual([{ source_id: 'src_bad', error: expect.stringMatching(/json/i) }]);
    expect(await service.recalculate('historical')).toEqual({ recalculated_count: 1, errors: [] });
  });

  it('lists never-scored and older-version scores as outdated', async () => {
    await db('source_quality_scores').where({ source_id: 'src_b' }).update({ cached_scores_version: 6 });
    const outdated = await service.outdated();
    expect(outdated.outdated_count).toBe(2);
    expect(outdated.sources).toEqual(
      expect.arrayContaining([
        { id: 'src_bad', title: 'Bad', cached_scores_version: null, current_version: scoringVersion },
        { id: 'src_b', title: 'SRC_B', cached_scores_version: 6, current_version: scoringVersion },
      ]),
    );
    await service.recalculate('historical');
    expect((await service.outdated()).sources.map((source) => source.id)).toEqual(['src_bad']);
  });

  it('summarises the committed sources from the cache (a source that cannot be scored stays out)', async () => {
    const summary = await service.summary();
    const [a, b] = [await service.sourceScore('src_a'), await service.sourceScore('src_b')];
    expect(summary).toMatchObject({
      total_sources: 2,
      total_entities: 3,
      total_relationships: 1,
      avg_entity_quality: (a.avg_entity_quality + b.avg_entity_quality) / 2,
    });
    expect(summary.top_sources.map((source) => source.source_id)).toEqual(['src_a', 'src_b']);
    expect(summary.bottom_sources.map((source) => source.source_id)).toEqual(['src_b', 'src_a']);
    expect((await service.domains()).domains.map((domain) => [domain.domain, domain.source_count])).toEqual([
      ['biographical', 1],
      ['historical', 1],
    ]);
    const grades = await cachedGrades(db, ['src_a', 'src_c']);
    expect(grades.get('src_a')).toEqual({ grade: a.quality_grade, label: a.quality_label });
    expect(grades.has('src_c')).toBe(false);
    expect(await corpusGrade(db)).toMatchObject({
      scored_sources: 2,
      avg_quality_grade: Math.round(((a.quality_grade + b.quality_grade) / 2) * 100) / 100,
    });
  });

  it('filters, sorts and pages an analysis while averaging over every match', async () => {
    const order = { sortBy: 'total_score' as const, direction: 'desc' as const };
    expect((await service.analyze({ domain: 'historical' }, order)).sources.map((source) => source.source_id)).toEqual([
      'src_b',
    ]);
    expect((await service.analyze({ minEntities: 2 }, order)).sources.map((source) => source.source_id)).toEqual([
      'src_a',
    ]);
    expect((await service.analyze({ sourceIds: ['src_b', 'src_c'] }, order)).total_sources).toBe(1);
    const page = await service.analyze({}, { sortBy: 'entity_count', direction: 'asc' }, { offset: 0, limit: 1 });
    expect(page.sources.map((source) => source.source_id)).toEqual(['src_b']);
    expect(page.total_sources).toBe(2);
    expect(page.avg_entity_quality).toBe((await service.summary()).avg_entity_quality);
  });
});
