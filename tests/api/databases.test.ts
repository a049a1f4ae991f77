import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

describe('databases', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('starts with the default database, active and seeded', async () => {
    const current = await call('GET', '/databases/current');
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ current: 'default', info: { name: 'default', exists: true } });
    const list = await call('GET', '/databases');
    expect((list.body as { databases: { name: string }[] }).databases.map((db) => db.name)).toEqual(['default']);
    const templates = await server.platform.databases
      .connection('default')
      .then((db) => db('graph_templates').pluck('id'));
    expect(templates).toEqual(expect.arrayContaining(['system_template_item', 'system_template_link']));
  });

  it('creates a database with its directory structure and seed data', async () => {
    const created = await call('POST', '/databases', { name: 'research_2026-b' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'research_2026-b', exists: true });
    expect((created.body as { size: number }).size).toBeGreaterThan(0);
    const dir = path.join(server.dataDir, 'databases', 'research_2026-b');
    for (const sub of ['app.db', 'sources', 'vectors', 'backups'])
      expect(fs.existsSync(path.join(dir, sub))).toBe(true);
    const db = await server.platform.databases.connection('research_2026-b');
    expect(await db('graph_templates').where({ is_system: true }).count({ n: '*' }).first()).toMatchObject({ n: 7 });
    const listed = await call('GET', '/databases');
    expect((listed.body as { databases: { name: string }[] }).databases.map((d) => d.name)).toEqual([
      'default',
      'research_2026-b',
    ]);
  });

  it.each([
    ['bad/name', 400],
    ['has space', 400],
    ['dots.not.allowed', 400],
    ['research_2026-b', 400],
  ])('refuses to create %j', async (name, status) => {
    const before = fs.readdirSync(path.join(server.dataDir, 'databases')).sort();
    const result = await call('POST', '/databases', { name });
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(fs.readdirSync(path.join(server.dataDir, 'databases')).sort()).toEqual(before);
  });

  it('rejects a create body without a name with 422', async () => {
    const result = await call('POST', '/databases', {});
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({
      error: 'VALIDATION_FAILED',
      details: { errors: [{ loc: ['body', 'name'], type: 'missing' }] },
    });
  });

  it('switches, reports and refuses to delete the active and the default database', async () => {
    const switched = await call('PATCH', '/databases/current', { name: 'research_2026-b' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ success: true, database: { name: 'research_2026-b' } });
    expect((await call('GET', '/databases/current')).body).toMatchObject({ current: 'research_2026-b' });
    expect((await call('GET', '/settings')).body).toMatchObject({ current_database: 'research_2026-b' });

    const deleteActive = await call('DELETE', '/databases/research_2026-b');
    expect(deleteActive.status).toBe(400);
    expect(deleteActive.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    const deleteDefault = await call('DELETE', '/databases/default');
    expect(deleteDefault.status).toBe(400);
    expect(fs.existsSync(path.join(server.dataDir, 'databases', 'default', 'app.db'))).toBe(true);
    const deleteMissing = await call('DELETE', '/databases/nope');
    expect(deleteMissing.status).toBe(400);

    expect((await call('PATCH', '/databases/current', { name: 'default' })).status).toBe(200);
  });

  it('404s for unknown databases on get and switch', async () => {
    const get = await call('GET', '/databases/unknown');
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({
      error: 'NOT_FOUND',
      details: { resource_type: 'database', identifier: 'unknown' },
    });
    const switched = await call('PATCH', '/databases/current', { name: 'unknown' });
    expect(switched.status).toBe(404);
    expect((await call('GET', '/databases/current')).body).toMatchObject({ current: 'default' });
  });

  it('gives an existing directory without app.db one on switch, and lists it only then', async () => {
    fs.mkdirSync(path.join(server.dataDir, 'databases', 'bare'));
    expect((await call('GET', '/databases/bare')).body).toMatchObject({
      name: 'bare',
      exists: false,
      size: 0,
      last_modified: null,
    });
    expect((await call('GET', '/databases')).text).not.toContain('"bare"');
    const switched = await call('PATCH', '/databases/current', { name: 'bare' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ database: { name: 'bare', exists: true } });
    expect((await call('GET', '/databases')).text).toContain('"bare"');
    await call('PATCH', '/databases/current', { name: 'default' });
  });

  it('deletes an inactive database permanently', async () => {
    const removed = await call('DELETE', '/databases/research_2026-b');
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(fs.existsSync(path.join(server.dataDir, 'databases', 'research_2026-b'))).toBe(false);
    expect((await call('GET', '/databases/research_2026-b')).status).toBe(404);
  });

  it('keeps a request on the database it started with while another request switches', async () => {
    await call('POST', '/databases', { name: 'other' });
    const current = server.platform.databases.current();
    await call('PATCH', '/databases/current', { name: 'other' });
    expect((await current).name).toBe('default');
    expect((await server.platform.databases.current()).name).toBe('other');
    await call('PATCH', '/databases/current', { name: 'default' });
  });
});
