import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { untilHolds } from '../support/wait.ts';

describe('operations endpoints', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, 'operator', 'a very secret password');
  });
  afterAll(() => server.stop());

  it('reports health of every subsystem', async () => {
    const result = await call('GET', '/health');
    expect(result.status).toBe(200);
    const body = result.body as { status: string; subsystems: Record<string, { status: string }> };
    expect(Object.keys(body.subsystems)).toEqual(
      expect.arrayContaining(['database', 'queue', 'vector_index', 'llm', 'embeddings', 'disk']),
    );
    expect(body.subsystems.database.status).toBe('ok');
    expect(body.subsystems.disk.status).toMatch(/ok|degraded/);
    expect(body.status).toMatch(/^(ok|degraded)$/);
  });

  it('requires authentication for health like every non-public endpoint', async () => {
    expect((await server.call('GET', '/health')).status).toBe(401);
  });

  it('serves edition and counts', async () => {
    const edition = (await call('GET', '/edition')).body as { features: string[]; license: { type: string } };
    expect(edition).toMatchObject({ edition: 'community', version: '0.1.0', license: { expires: null } });
    const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(edition.license.type).toBe(manifest.license);
    expect(fs.readFileSync(path.join(import.meta.dirname, '../../LICENSE'), 'utf8')).toContain('Apache License');
    for (const feature of ['sources', 'graph', 'chats', 'mcp', 'workflows'])
      expect(edition.features).toContain(feature);
    const counts = await call('GET', '/counts');
    expect(counts.body).toMatchObject({ database: 'default', counts: { templates: 7, databases: 1 } });
  });

  it('reads real log files with bounded line counts', async () => {
    const logLine = (message: string) =>
      `${JSON.stringify({ level: 'info', message, timestamp: new Date().toISOString() })}\n`;
    fs.appendFileSync(
      path.join(server.dataDir, 'logs', 'cortex.log'),
      logLine('cortex line one') + logLine('cortex line two'),
    );
    fs.appendFileSync(path.join(server.dataDir, 'logs', 'neuron.log'), logLine('neuron line'));
    const cortex = await call('GET', '/logs/cortex?lines=1');
    expect(cortex.status).toBe(200);
    expect(cortex.body).toMatchObject({ service: 'cortex', total_lines: 1 });
    expect((cortex.body as { lines: string[] }).lines[0]).toContain('cortex line two');
    const all = await call('GET', '/logs?lines=50');
    expect((all.body as { lines: string[] }).lines.some((line) => line.includes('neuron line'))).toBe(true);
    for (const lines of ['0', '10001', 'many']) {
      const bad = await call('GET', `/logs?lines=${lines}`);
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({
        error: 'VALIDATION_FAILED',
        details: { errors: [{ loc: ['query', 'lines'] }] },
      });
    }
    expect((await call('GET', '/logs/nonsense')).status).toBe(404);
  });

  it('says the process supervisor is unavailable in the embedded default, and lists its one node leading', async () => {
    const status = (await call('GET', '/logs/status')).body as { nodes: unknown[] };
    expect(status).toMatchObject({ available: false, services: [] });
    expect(status.nodes).toEqual([
      expect.objectContaining({ role: 'leader', self: true, alive: true, pid: process.pid }),
    ]);
  });

  it('exports a diagnostics ZIP without any secret', async () => {
    await call('PATCH', '/settings', { llm: { openai_api_key: 'sk-live-diagnostics-secret' } });
    const key = ((await call('POST', '/auth/keys', { name: 'diag' })).body as { key: string }).key;
    await server.call('GET', '/auth/me', { key });
    const response = await fetch(`${server.base}/diagnostics/export`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('chaoscypher-diagnostics.zip');
    const zip = await JSZip.loadAsync(Buffer.from(await response.arrayBuffer()));
    const names = Object.keys(zip.files).filter((name) => !zip.files[name].dir);
    expect(names).toEqual(
      expect.arrayContaining([
        'system.json',
        'settings.json',
        'databases.json',
        'queue.json',
        'services.json',
        'logs/cortex.log',
      ]),
    );
    const secretValues = ['sk-live-diagnostics-secret', key, 'a very secret password', cookie.split('=')[1]];
    for (const name of ['session_secret', 'edge_auth_token'])
      secretValues.push(fs.readFileSync(path.join(server.dataDir, 'secrets', name), 'utf8').trim());
    for (const name of names) {
      const text = await zip.file(name)!.async('string');
      for (const secret of secretValues) expect(text, `${name} leaks a secret`).not.toContain(secret);
    }
    const settings = JSON.parse(await zip.file('settings.json')!.async('string'));
    expect(settings.llm).not.toHaveProperty('openai_api_key');
    expect(settings.llm).toHaveProperty('ai_max_tokens');
  });

  it('reloads plugin caches and serves the dashboard', async () => {
    expect((await call('POST', '/admin/plugins/reload')).body).toEqual({
      invalidated: ['domains'],
      total: 1,
      domain_files: { directory: expect.stringMatching(/domains$/), loaded: [], problems: [] },
    });
    const dashboard = await call('GET', '/system/dashboard');
    expect(dashboard.body).toMatchObject({
      // The system workflow (Generate Embeddings) is seeded in every database, as the system templates are.
      counts: {
        knowledge_nodes: 0,
        links: 0,
        templates: 7,
        workflows: 1,
        lenses: 0,
        sources: 0,
        awaiting_confirmation: 0,
      },
      llm: { data: {} },
      processing: { paused: false, paused_at: null, reason: null },
    });
  });
});

describe('OpenAPI', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('documents every mounted endpoint and is public, with the UI at /docs', async () => {
    const document = (await server.call('GET', '/openapi.json')).body as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const documented = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`),
    );
    const specEndpoints = fs
      .readFileSync(path.resolve(__dirname, '../../../shared/spec/endpoints.txt'), 'utf8')
      .trim()
      .split('\n');
    const foundation = specEndpoints.filter((line) =>
      /^(\w+) \/(auth|settings$|settings\/(reset|logging)|databases|upgrade|logs|diagnostics|admin|system\/dashboard)/.test(
        line,
      ),
    );
    expect(foundation).toHaveLength(31);
    for (const line of foundation) expect(documented, line).toContain(line);
    for (const extra of ['GET /health', 'GET /edition', 'GET /counts']) expect(documented).toContain(extra);
    const docs = await fetch(`${server.base}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });
});

describe('error envelope', () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { RHIZOME_SETTINGS__BATCHING__MAX_REQUEST_BODY_MB: '1' } });
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('answers an oversize JSON body with 413 PAYLOAD_TOO_LARGE', async () => {
    const result = await server.call('POST', '/databases', {
      cookie,
      rawBody: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers unknown routes and wrong methods with 404 in the envelope', async () => {
    const result = await server.call('GET', '/no/such/route', { cookie });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({
      error: 'NOT_FOUND',
      message: expect.any(String),
      details: { resource_type: 'route', identifier: '/no/such/route' },
    });
    expect((await server.call('PUT', '/databases', { cookie })).status).toBe(404);
  });

  it('answers malformed JSON with 422 and changes nothing', async () => {
    const result = await server.call('POST', '/databases', { cookie, rawBody: '{"name": ' });
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({
      error: 'VALIDATION_FAILED',
      details: { errors: [{ loc: ['body'], type: 'json_invalid' }] },
    });
    expect(
      ((await server.call('GET', '/databases', { cookie })).body as { databases: unknown[] }).databases,
    ).toHaveLength(1);
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR, logs the stack and returns none', async () => {
    fs.rmSync(path.join(server.dataDir, 'secrets'), { recursive: true, force: true });
    fs.writeFileSync(path.join(server.dataDir, 'secrets'), 'not a directory');
    const result = await server.call('GET', '/diagnostics/export', { cookie });
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ error: 'INTERNAL_ERROR', message: 'An unexpected error occurred', details: null });
    expect(result.text).not.toMatch(/at \w+.*\.ts/);
    await untilHolds(
      () => fs.readFileSync(path.join(server.dataDir, 'logs', 'cortex.log'), 'utf8'),
      (log) => /diagnostics\/export failed: Error.*\\n\s+at /.test(log),
      { what: 'the logged stack of the failure' },
    );
  });
});
