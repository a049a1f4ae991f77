import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { startOnPostgres, type PostgresService } from '../support/postgres-service.ts';
import { runRhizome } from '../support/cli.ts';
import { tempDataDir } from '../support/server.ts';
import { until } from '../support/wait.ts';

let postgres: TestPostgres;
let service: PostgresService;
let cookie: string;

beforeAll(async () => {
  postgres = await startPostgres();
  service = await startOnPostgres(postgres);
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await postgres?.stop();
});

/** The platform on a PostgreSQL server, through HTTP: databases, settings, credentials and the queue. */
describe('rhizome serve with RHIZOME_DATABASE_URL', () => {
  it('starts with one preview warning and keeps the system tables in rhizome_system', async () => {
    const setup = await service.call('POST', '/auth/setup', {
      body: { username: 'operator', password: 'correct horse battery' },
    });
    expect(setup.status).toBe(201);
    cookie = setup.cookie!;
    expect(service.output().match(/PostgreSQL backend is a preview/g)).toHaveLength(1);
    const schemas = await postgres.superuser(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'rhizome_system' ORDER BY 1",
      'rhizome',
    );
    expect(schemas.split('\n')).toEqual(
      expect.arrayContaining(['llm_calls', 'processing_state', 'system_events', 'tasks']),
    );
  }, 60_000);

  it('creates, switches to and deletes a database, each a schema whose size GET /databases reports', async () => {
    const created = await service.call('POST', '/databases', { cookie, body: { name: 'notes' } });
    expect(created.status).toBeLessThan(300);
    const listed = await service.call('GET', '/databases', { cookie });
    const databases = (listed.body as { databases: { name: string; size: number }[] }).databases;
    expect(databases.map((database) => database.name)).toEqual(['default', 'notes']);
    expect(databases.every((database) => database.size > 0)).toBe(true);
    const schemas = () =>
      postgres.superuser("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rhizome_%' ORDER BY 1", 'rhizome');
    expect(await schemas()).toBe('rhizome_default\nrhizome_notes\nrhizome_system\n');
    expect((await service.call('POST', '/databases', { cookie, body: { name: 'system' } })).status).toBe(400);

    const switched = await service.call('PATCH', '/databases/current', { cookie, body: { name: 'notes' } });
    expect(switched.status).toBe(200);
    expect((await service.call('GET', '/databases/current', { cookie })).body).toMatchObject({ current: 'notes' });
    expect((await service.call('DELETE', '/databases/notes', { cookie })).status).toBe(400);
    await service.call('PATCH', '/databases/current', { cookie, body: { name: 'default' } });
    expect((await service.call('DELETE', '/databases/notes', { cookie })).status).toBeLessThan(300);
    expect(await schemas()).toBe('rhizome_default\nrhizome_system\n');
  }, 60_000);

  it('keeps settings on the server, where a restart reads them', async () => {
    const patched = await service.call('PATCH', '/settings', { cookie, body: { app_name: 'Shared brain' } });
    expect(patched.status).toBe(200);
    await service.restart();
    const again = await service.call('GET', '/settings', { cookie });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ app_name: 'Shared brain' });
    const stored = await postgres.superuser(
      "SELECT content FROM rhizome_system.settings_documents WHERE name = 'settings'",
      'rhizome',
    );
    expect(JSON.parse(stored)).toMatchObject({ app_name: 'Shared brain' });
    expect(fs.existsSync(path.join(service.dataDir, 'settings.json'))).toBe(false);
  }, 120_000);

  it('runs a task enqueued through the queue kept in rhizome_system', async () => {
    const submitted = await service.call('POST', '/queue/tasks', {
      cookie,
      body: { queue: 'operations', operation: 'system.noop', data: {} },
    });
    expect(submitted.status).toBeLessThan(300);
    const taskId = (submitted.body as { task_id: string }).task_id;
    await until(
      async () => {
        const task = await service.call('GET', `/queue/tasks/${taskId}`, { cookie });
        return (task.body as { status: string }).status === 'completed';
      },
      { timeoutMs: 30_000, what: 'the task to complete' },
    );
    expect(
      await postgres.superuser(`SELECT status FROM rhizome_system.tasks WHERE task_id = '${taskId}'`, 'rhizome'),
    ).toBe('completed\n');
  }, 60_000);

  it('keeps the sign-in and an API key across a restart', async () => {
    const key = await service.call('POST', '/auth/keys', { cookie, body: { name: 'ci' } });
    expect(key.status).toBeLessThan(300);
    await service.restart();
    expect((await service.call('GET', '/auth/me', { cookie })).status).toBe(200);
    expect((await service.call('GET', '/databases', { key: (key.body as { key: string }).key })).status).toBe(200);
    const login = await service.call('POST', '/auth/login', {
      body: { username: 'operator', password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
  }, 120_000);

  it('shares the account, sessions and API keys with a second process on its own data directory', async () => {
    const second = await startOnPostgres(postgres);
    try {
      // Set up on the first process: the second, with no credentials file, signs in the same operator.
      expect((await second.call('GET', '/auth/me', { cookie })).status).toBe(200);
      expect(
        (await second.call('POST', '/auth/setup', { body: { username: 'x', password: 'another one here' } })).status,
      ).toBe(409);
      const key = await second.call('POST', '/auth/keys', { cookie, body: { name: 'second' } });
      expect(key.status).toBeLessThan(300);
      const { key: secret, id } = key.body as { key: string; id: string };
      expect((await service.call('GET', '/databases', { key: secret })).status).toBe(200);
      expect(fs.existsSync(path.join(second.dataDir, 'credentials.json'))).toBe(false);
      expect(await postgres.superuser('SELECT count(*) FROM rhizome_system.auth_credentials', 'rhizome')).toBe('1\n');
      // A key revoked on one process is refused by the other on its next request.
      expect((await service.call('DELETE', `/auth/keys/${id}`, { cookie })).status).toBeLessThan(300);
      await until(async () => (await second.call('GET', '/databases', { key: secret })).status === 401, {
        // Sharing is what this pins; how fast a revocation travels is the cluster suite's to measure.
        timeoutMs: 30_000,
        what: 'the revoked key to be refused by the second process',
      });
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('answers 503 in the error envelope while the server is away, and serves again once it is back', async () => {
    await postgres.halt();
    try {
      const away = await service.call('GET', '/databases', { cookie });
      expect(away.status).toBe(503);
      expect(away.body).toMatchObject({ error: expect.any(String), message: expect.stringContaining('PostgreSQL') });
      expect((await service.call('GET', '/queue/tasks', { cookie })).status).toBe(503);
    } finally {
      await postgres.resume();
    }
    await until(async () => (await service.call('GET', '/databases', { cookie })).status === 200, {
      timeoutMs: 30_000,
      what: 'GET /databases to answer again',
    });
    const submitted = await service.call('POST', '/queue/tasks', {
      cookie,
      body: { queue: 'operations', operation: 'system.noop', data: {} },
    });
    expect(submitted.status).toBeLessThan(300);
  }, 120_000);

  it('stops start-up with one line and exit 2 when the server refuses the password', async () => {
    const wrong = postgres.url.replace(postgres.password, 'wrong-secret');
    const { code, output } = await runRhizome(['serve', '--port', '0'], tempDataDir(), {
      RHIZOME_DATABASE_URL: wrong,
      RHIZOME_POSTGRES_PREVIEW: '1',
    });
    expect(code).toBe(2);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toContain('refused the password of rhizome');
    expect(output).not.toContain('wrong-secret');
  }, 60_000);
});
