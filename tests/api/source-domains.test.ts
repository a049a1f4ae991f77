import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';

interface Entry {
  origin: string;
  prompt_tokens: number;
  domain: { name: string; description: string; builtin: boolean; entity_guidance: string };
}

const technicalFile = new URL('../../packages/core/src/sources/domains/data/technical.json', import.meta.url);
const technical = () => JSON.parse(fs.readFileSync(technicalFile, 'utf8')) as Record<string, unknown>;
/** A full definition of a custom domain, from the built-in technical one. */
const definition = (name: string, changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...technical(),
  name,
  builtin: false,
  ...changes,
});

describe('custom extraction domains', () => {
  let server: TestServer;
  let cookie: string;
  const dataDir = tempDataDir();
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const listed = async () =>
    ((await call('GET', '/sources/domains')).body as { domains: { name: string; builtin: boolean }[] }).domains;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, 'domains'));
    fs.writeFileSync(path.join(dataDir, 'domains', 'recipes.json'), JSON.stringify(definition('recipes')));
    fs.writeFileSync(path.join(dataDir, 'domains', 'broken.json'), '{"name": ');
    server = await startTestServer({ dataDir });
    cookie = await setUpAccount(server, 'operator', 'a very secret password');
  });
  afterAll(() => server.stop());

  it('reads one built-in domain in full, and 404 for a name no domain has', async () => {
    const legal = await call('GET', '/sources/domains/legal');
    expect(legal.status).toBe(200);
    expect(legal.body).toMatchObject({ origin: 'builtin', domain: { name: 'legal', builtin: true } });
    expect((legal.body as Entry).prompt_tokens).toBeGreaterThan(100);
    const missing = await call('GET', '/sources/domains/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      error: 'NOT_FOUND',
      details: { resource_type: 'Domain', identifier: 'nope' },
    });
  });

  it('copies a built-in domain under a new name; the copy is listed and used at once', async () => {
    const created = await call('POST', '/sources/domains', {
      copy_of: 'technical',
      name: 'firmware',
      description: 'Embedded firmware manuals',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      origin: 'database',
      domain: { name: 'firmware', builtin: false, description: 'Embedded firmware manuals' },
    });
    expect((await call('GET', '/sources/domains/firmware')).body).toMatchObject({ origin: 'database' });
    expect(await listed()).toContainEqual(expect.objectContaining({ name: 'firmware', builtin: false }));
  });

  it('detects a custom domain on an upload as soon as it is stored', async () => {
    const created = await call(
      'POST',
      '/sources/domains',
      definition('beekeeping', {
        description: 'Hives, colonies and honey',
        detection: {
          ...(technical().detection as Record<string, unknown>),
          keywords: [{ terms: ['hive', 'hives', 'brood', 'apiary', 'nectar', 'beekeeper', 'honey super'], weight: 3 }],
          file_extensions: [],
          doc_types: [],
          patterns: [],
        },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const text =
      'The beekeeper opened each hive in the apiary at noon. Brood frames were full, the nectar flow was strong, ' +
      'and a honey super went onto every hive. Two hives were requeened; the brood pattern of the others was even.';
    const uploaded = await uploadSources(server, cookie, '/sources', [{ name: 'apiary-log.txt', content: text }]);
    expect(uploaded.status, uploaded.text).toBe(202);
    const parked = await waitForSource(server, cookie, (uploaded.body as SourceResponseBody).id, [
      'awaiting_confirmation',
    ]);
    expect((parked.detection_proposal as unknown as { detected_domain: string }).detected_domain).toBe('beekeeping');
  }, 60_000);

  it('creates a domain from a full definition and replaces it', async () => {
    const created = await call('POST', '/sources/domains', definition('hardware'));
    expect(created.status, created.text).toBe(201);
    const replaced = await call(
      'PUT',
      '/sources/domains/hardware',
      definition('hardware', { entity_guidance: 'Extract boards, chips and buses.' }),
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(((await call('GET', '/sources/domains/hardware')).body as Entry).domain.entity_guidance).toBe(
      'Extract boards, chips and buses.',
    );
  });

  it('refuses a name in use, built-in or custom, with 409', async () => {
    const builtin = await call('POST', '/sources/domains', definition('legal'));
    expect(builtin.status).toBe(409);
    expect(builtin.body).toMatchObject({ error: 'CONFLICT' });
    const again = await call('POST', '/sources/domains', { copy_of: 'legal', name: 'hardware' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'CONFLICT', details: { name: 'hardware', origin: 'database' } });
  });

  it('validates a definition with the built-in schema: 422 with the issues under body', async () => {
    const bad = definition('badregex', {
      detection: { ...(technical().detection as object), patterns: [{ regex: '(a+)+$', weight: 1, description: 'x' }] },
    });
    expect(validationIssuesOf(await call('POST', '/sources/domains', bad))).toContainEqual(
      expect.objectContaining({ loc: ['body', 'detection', 'patterns', 0, 'regex'], type: 'regex' }),
    );
    const { templates: _omitted, ...incomplete } = definition('incomplete');
    expect(validationIssuesOf(await call('POST', '/sources/domains', incomplete)).length).toBeGreaterThan(0);
    expect(validationIssuesOf(await call('POST', '/sources/domains', { copy_of: 'nope', name: 'x1' }))).toEqual([
      expect.objectContaining({ loc: ['body', 'copy_of'], type: 'reference' }),
    ]);
    expect(
      validationIssuesOf(await call('POST', '/sources/domains', { copy_of: 'legal', name: 'x2', version: '2.0.0' })),
    ).toEqual([expect.objectContaining({ loc: ['body', 'version'], type: 'additional' })]);
    expect(
      validationIssuesOf(await call('PUT', '/sources/domains/hardware', definition('renamed'))).map((i) => i.loc),
    ).toEqual([['body', 'name']]);
    expect((await call('POST', '/sources/domains', 'not json at all')).status).toBeGreaterThanOrEqual(400);
  });

  it('never changes or deletes a built-in domain: 409, and the built-in stays', async () => {
    const put = await call('PUT', '/sources/domains/legal', definition('legal'));
    expect(put.status).toBe(409);
    expect(put.body).toMatchObject({ error: 'CONFLICT', details: { name: 'legal', origin: 'builtin' } });
    expect((put.body as { message: string }).message).toContain('copy_of');
    expect((await call('DELETE', '/sources/domains/legal')).status).toBe(409);
    expect((await call('GET', '/sources/domains/legal')).body).toMatchObject({ origin: 'builtin' });
  });

  it('deletes a custom domain; 404 afterwards', async () => {
    expect((await call('DELETE', '/sources/domains/hardware')).status).toBe(204);
    expect((await call('GET', '/sources/domains/hardware')).status).toBe(404);
    expect((await call('DELETE', '/sources/domains/hardware')).status).toBe(404);
    expect((await listed()).map((domain) => domain.name)).not.toContain('hardware');
  });

  it('loads drop-in files at start; a file cannot be changed through the API', async () => {
    expect((await call('GET', '/sources/domains/recipes')).body).toMatchObject({ origin: 'file' });
    expect(await listed()).toContainEqual(expect.objectContaining({ name: 'recipes' }));
    const put = await call('PUT', '/sources/domains/recipes', definition('recipes'));
    expect(put.status).toBe(409);
    expect(put.body).toMatchObject({ details: { origin: 'file' } });
    expect((await call('DELETE', '/sources/domains/recipes')).status).toBe(409);
  });

  it('reads the files again on plugins reload and reports a bad one without failing', async () => {
    const folder = path.join(dataDir, 'domains');
    fs.writeFileSync(path.join(folder, 'gardening.json'), JSON.stringify(definition('gardening')));
    fs.writeFileSync(path.join(folder, 'legal.json'), JSON.stringify(definition('legal')));
    const reload = await call('POST', '/admin/plugins/reload');
    expect(reload.status).toBe(200);
    const report = (
      reload.body as { domain_files: { loaded: string[]; problems: { file: string; message: string }[] } }
    ).domain_files;
    expect(report.loaded).toEqual(['gardening', 'recipes']);
    expect(report.problems.map((problem) => problem.file)).toEqual(['broken.json', 'legal.json']);
    expect(report.problems[1].message).toContain('built-in');
    expect((reload.body as { invalidated: string[] }).invalidated).toContain('domains');
    expect((await call('GET', '/sources/domains/gardening')).body).toMatchObject({ origin: 'file' });

    fs.rmSync(path.join(folder, 'gardening.json'));
    await call('POST', '/admin/plugins/reload');
    expect((await call('GET', '/sources/domains/gardening')).status).toBe(404);
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'cortex.log'), 'utf8');
    expect(log).toContain('broken.json');
  });
});
