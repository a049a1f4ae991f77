import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/** Health, counts and backup listings in the shapes scripts written for the older system read. */
describe('health, counts and backups in the shapes older clients read', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server?.stop());

  it('GET /health answers healthy, status ok/degraded and a CheckItem per check', async () => {
    const result = await call('GET', '/health');
    expect(result.status, result.text).toBe(200);
    const body = result.body as { healthy: unknown; status: unknown; checks: Record<string, Record<string, unknown>> };
    expect(typeof body.healthy).toBe('boolean');
    expect(['ok', 'degraded']).toContain(body.status);
    const keys = ['embeddings', 'queue', 'search_index', 'graph', 'disk_space', 'database', 'llm_worker', 'ops_worker'];
    expect(Object.keys(body.checks)).toEqual(expect.arrayContaining(keys));
    for (const [key, check] of Object.entries(body.checks)) {
      expect(['ok', 'warning', 'error'], key).toContain(check.status);
      expect(typeof check.message, key).toBe('string');
      expect(['resource', 'service', 'operational'], key).toContain(check.category);
      if ('details' in check) expect(typeof check.details, key).toBe('object');
    }
    expect(body.checks.database).toMatchObject({ status: 'ok', category: 'resource' });
    expect(body.checks.disk_space).toMatchObject({ category: 'resource', auto_recoverable: false });
    expect(body.checks.graph.details).toEqual({
      entity_count: expect.any(Number),
      relationship_count: expect.any(Number),
    });
    expect(body.checks.llm_worker.details).toEqual({ active: expect.any(Number) });
    expect(body.status).toBe(Object.values(body.checks).every((check) => check.status === 'ok') ? 'ok' : 'degraded');
  });

  it('GET /counts carries the seven figures as integers at the top level, matching the nested counts', async () => {
    const body = (await call('GET', '/counts')).body as Record<string, unknown> & { counts: Record<string, number> };
    for (const key of [
      'knowledge_nodes',
      'links',
      'templates',
      'workflows',
      'lenses',
      'sources',
      'awaiting_confirmation',
    ]) {
      expect(Number.isInteger(body[key]), key).toBe(true);
      expect(body[key], key).toBe(body.counts[key] ?? 0);
    }
    expect(body.database).toBe('default');
  });

  it('GET /backup lists every backup under `backups` with a YYYYMMDD_HHMMSS time, and /download serves the file', async () => {
    const created = await call('POST', '/backup');
    expect(created.status, created.text).toBe(201);
    const { filename, size } = created.body as { filename: string; size: number };
    const body = (await call('GET', '/backup')).body as {
      data: { filename: string }[];
      backups: { filename: unknown; size: unknown; created_at: unknown }[];
    };
    expect(body.backups.length).toBeGreaterThanOrEqual(1);
    for (const backup of body.backups) {
      expect(Object.keys(backup).sort()).toEqual(['created_at', 'filename', 'size']);
      expect(backup.created_at).toMatch(/^\d{8}_\d{6}$/);
      expect(Number.isInteger(backup.size)).toBe(true);
    }
    const listed = body.backups.find((backup) => backup.filename === filename);
    expect(listed).toMatchObject({ size });
    expect(filename).toContain(String(listed?.created_at));
    const download = await call('GET', `/backup/${filename}/download`);
    expect(download.status).toBe(200);
    expect(Number(download.headers.get('content-length'))).toBe(size);
    expect((await call('GET', '/backup/app_20200102_000000.db/download')).status).toBe(404);
  });

  it('GET /edition names the edition, the licence and every community feature group', async () => {
    const body = (await call('GET', '/edition')).body as {
      edition: unknown;
      license: { type: unknown; holder: unknown; expires: unknown };
      features: unknown[];
    };
    expect(body.edition).toBe('community');
    expect(typeof body.license.type).toBe('string');
    expect(typeof body.license.holder).toBe('string');
    expect(body.license.expires).toBeNull();
    const community = ['auth', 'backup', 'chats', 'counts', 'databases', 'diagnostics', 'edges', 'export', 'graph'];
    community.push('health', 'lexicon', 'llm', 'logs', 'mcp', 'nodes', 'quality', 'queue', 'search', 'settings');
    community.push('sources', 'templates', 'tools', 'triggers', 'workflows');
    expect(body.features).toEqual(expect.arrayContaining(community));
  });

  it('GET /workflows/stats answers the workflow and execution figures with a float success rate', async () => {
    const body = (await call('GET', '/workflows/stats')).body as Record<string, unknown>;
    const integers = ['total_workflows', 'active_workflows', 'inactive_workflows', 'total_executions'];
    integers.push('successful_executions', 'failed_executions', 'cancelled_executions');
    for (const key of integers) expect(Number.isInteger(body[key]), key).toBe(true);
    expect(typeof body.success_rate).toBe('number');
    expect(body.total_workflows).toBe(Number(body.active_workflows) + Number(body.inactive_workflows));
  });
});
