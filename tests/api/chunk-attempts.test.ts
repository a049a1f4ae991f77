import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AttemptDetailBody,
  AttemptSummaryBody,
  ExtractionStatsBody,
  FilteringLogBody,
} from '@rhizome/contracts/api/extraction';
import { extractionModule } from '@rhizome/core/extraction';
import type { FakeOllama } from '../support/fakes/ollama.ts';
import type { TestServer } from '../support/server.ts';
import { chunkScript, committedTwoGroupSource } from './chunk-history-fixture.ts';

describe('extraction attempts per chunk', () => {
  let server: TestServer;
  let cookie: string;
  let ollama: FakeOllama;
  let sourceId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    ({ server, cookie, ollama, sourceId } = await committedTwoGroupSource());
  }, 90_000);

  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  it('records one attempt per chunk with prompts, raw answers, parsed and dropped items, tokens and time', async () => {
    const progress = (await call('GET', `/sources/${sourceId}/extraction`)).body as { total_chunks: number };
    expect(progress.total_chunks).toBe(2);
    const listed = await call('GET', `/sources/${sourceId}/chunks/0/attempts`);
    expect(listed.status, listed.text).toBe(200);
    const attempts = (listed.body as { data: AttemptSummaryBody[] }).data;
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      group_index: 0,
      attempt_number: 1,
      status: 'completed',
      provider: 'localllm',
      model: 'qwen3:8b',
      entity_count: 2,
      relationship_count: 1,
    });
    expect(attempts[0].input_tokens).toBeGreaterThan(0);
    expect(attempts[0].output_tokens).toBeGreaterThan(0);

    const detail = await call('GET', `/sources/${sourceId}/chunks/0/attempts/${attempts[0].id}`);
    expect(detail.status, detail.text).toBe(200);
    const body = detail.body as AttemptDetailBody;
    expect(body.calls.map((one) => one.pass)).toEqual(['entities', 'relationships']);
    expect(body.calls[0].system_prompt).toContain('knowledge-graph extractor');
    expect(body.calls[0].user_prompt).toContain('Marie Curie was born in Warsaw');
    expect(body.calls[0].raw_output).toBe(chunkScript.first[0]);
    expect(body.raw_entities.map((entity) => entity.name)).toEqual(['Marie Curie', 'Warsaw']);
    expect(body.raw_relationships).toEqual([
      expect.objectContaining({ source: 'Marie Curie', target: 'Warsaw', type: 'born_in' }),
    ]);
    expect(body.dropped).toContainEqual(
      expect.objectContaining({ stage: 'evidence', kind: 'entity', item: 'Atlantis' }),
    );

    const second = (await call('GET', `/sources/${sourceId}/chunks/1/attempts`)).body as { data: AttemptSummaryBody[] };
    expect(second.data).toEqual([expect.objectContaining({ group_index: 1, entity_count: 2 })]);
  });

  it('lists a dropped item with its reason in the filtering log', async () => {
    const log = await call('GET', `/sources/${sourceId}/extraction/filteringlog`);
    expect(log.status, log.text).toBe(200);
    const body = log.body as FilteringLogBody;
    expect(body.by_stage.evidence).toBe(1);
    expect(body.groups).toEqual([
      expect.objectContaining({
        chunk_index: 0,
        dropped: [expect.objectContaining({ item: 'Atlantis', reason: expect.stringContaining('no cited sentence') })],
      }),
    ]);
    expect(body.finalize).toMatchObject({ entitiesIn: 4 });
  });

  it('serves statistics with the prompts, chart points, model calls and recovery events', async () => {
    const stats = (await call('GET', `/sources/${sourceId}/extraction/stats`)).body as ExtractionStatsBody;
    expect(stats).toMatchObject({
      total_tasks: 2,
      total_entities: 4,
      total_entities_filtered: 1,
      domain: 'biographical',
    });
    expect(stats.extraction_rules_template).toContain('domain: biographical');
    expect(stats.entity_templates?.map((template) => template.name)).toContain('Person');
    const charts = (await call('GET', `/sources/${sourceId}/extraction/charts`)).body as { chunk_index: number }[];
    expect(charts.map((point) => point.chunk_index)).toEqual([0, 1]);
    const calls = await call('GET', `/sources/${sourceId}/llm_metrics/calls?page_size=50`);
    expect(calls.status, calls.text).toBe(200);
    const extraction = (calls.body as { calls: { operation_type: string; chunk_index: number | null }[] }).calls.filter(
      (row) => row.operation_type === 'extraction',
    );
    expect(extraction.map((row) => row.chunk_index).sort()).toEqual([0, 0, 1, 1]);
    const summary = (await call('GET', `/sources/${sourceId}/llm_metrics`)).body as { has_metrics: boolean };
    expect(summary.has_metrics).toBe(true);
    const events = await call('GET', `/sources/${sourceId}/recovery_events`);
    expect(events.status, events.text).toBe(200);
    expect(events.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it('answers bad requests with a clear 4xx', async () => {
    expect((await call('GET', `/sources/${sourceId}/chunks/7/attempts/att_missing`)).status).toBe(404);
    expect((await call('GET', `/sources/${sourceId}/chunks/minus/attempts`)).status).toBe(422);
    expect((await call('GET', '/sources/src_missing/chunks/0/attempts')).status).toBe(404);
    expect((await call('GET', '/sources/src_missing/extraction/filteringlog')).status).toBe(404);
    expect((await call('POST', `/sources/${sourceId}/chunks/9/rerun`, {})).status).toBe(404);
    expect((await call('POST', `/sources/${sourceId}/chunks/rerun`, { chunk_indexes: [] })).status).toBe(422);
  });

  it('sweeps attempts older than source_processing.attempt_retention_days', async () => {
    const handle = await server.platform.databases.current();
    const old = new Date(Date.now() - 20 * 86_400_000).toISOString();
    await handle.db('extraction_attempts').where({ source_id: sourceId, group_index: 0 }).update({ completed_at: old });
    const service = extractionModule.service!(server.platform, handle);
    expect(await service.sweepAttempts()).toBe(1);
    const left = (await call('GET', `/sources/${sourceId}/chunks/0/attempts`)).body as { data: unknown[] };
    expect(left.data).toEqual([]);
    expect(
      ((await call('GET', `/sources/${sourceId}/chunks/1/attempts`)).body as { data: unknown[] }).data,
    ).toHaveLength(1);
  });
});
