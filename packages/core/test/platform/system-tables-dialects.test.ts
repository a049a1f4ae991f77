import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingControls } from '../../src/pause/index.ts';
import { LlmMetrics } from '../../src/providers/metrics.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const call = {
  provider: 'openai',
  model: 'gpt-x',
  operation: 'chat',
  inputTokens: 10,
  outputTokens: 4,
  durationMs: 12.5,
  attempts: 1,
  database: 'default',
  sourceId: 'src_1',
};

/** The system tables (pause flags, system events, the model call log) on both dialects, opened twice as two processes do. */
describe.each(dialects)('system tables on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('system');
  }, 60_000);
  afterAll(() => databases.close());

  it('pauses and resumes processing and sources, logging each as a system event', async () => {
    const [controls] = await Promise.all([ProcessingControls.open(db), ProcessingControls.open(db)]);
    await controls.pause('maintenance');
    expect(await controls.status()).toMatchObject({ paused: true, reason: 'maintenance' });
    expect(await controls.pausedBy()).toBe('user');
    await controls.resume();
    expect(await controls.status()).toMatchObject({ paused: false, reason: null });
    expect(await controls.pauseSources('default', ['a', 'b', 'a'], null)).toBe(2);
    expect(await controls.pauseSources('default', ['b', 'c'], null)).toBe(1);
    expect(await controls.isSourcePaused('default', 'c')).toBe(true);
    expect(await controls.resumeSources('default', ['a', 'c'])).toBe(2);
    expect([...(await controls.pausedSourceIds())]).toEqual(['b']);
    const events = await controls.events({ limit: 10 });
    expect(events.map((event) => event.action)).toEqual([
      'source_resume',
      'source_pause',
      'source_pause',
      'system_resume',
      'system_pause',
    ]);
    expect(events[0].details).toEqual({ source_ids: ['a', 'c'] });
    expect(await controls.clearEvents()).toBe(5);
  });

  it('sums model calls per provider and per source, failed calls counted apart', async () => {
    const [metrics] = await Promise.all([LlmMetrics.open(db), LlmMetrics.open(db)]);
    await metrics.record({ ...call, success: true });
    await metrics.record({ ...call, success: false, durationMs: 30, errorKind: 'timeout' });
    await metrics.record({ ...call, success: true, sourceId: 'src_2', inputTokens: 1 });
    const [stats] = await metrics.stats(new Date(Date.now() - 60_000));
    expect(stats).toMatchObject({ provider: 'openai', calls: 3, errors: 1, input_tokens: 21, output_tokens: 12 });
    expect(stats.avg_duration_ms).toBe(18.3);
    const bySource = await metrics.totalsBy('default', 'source_id', ['src_1', 'src_2', 'src_3']);
    expect(bySource.get('src_1')).toEqual({
      calls: 2,
      failed_calls: 1,
      input_tokens: 20,
      output_tokens: 8,
      duration_ms: 42.5,
    });
    expect(bySource.get('src_3')?.calls).toBe(0);
    expect(await metrics.totals({ database: 'other' })).toEqual({
      calls: 0,
      failed_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      duration_ms: 0,
    });
    const page = await metrics.callsOf('default', 'src_1', { offset: 0, limit: 1 }, false);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ error_kind: 'timeout', success: 0 });
    await metrics.resetMonitor(new Date('2026-01-01T00:00:00Z'));
    await metrics.resetMonitor(new Date('2026-01-02T00:00:00Z'));
    expect(await metrics.monitorResetAt()).toEqual(new Date('2026-01-02T00:00:00Z'));
  });
});
