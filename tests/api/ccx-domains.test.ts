import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { entriesOf } from '../../packages/core/test/ccx/zip-fixtures.ts';
import { ccx2Package } from '../support/ccx-build.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { waitForTask } from '../support/wait.ts';

interface DomainEntry {
  origin: string;
  domain: { name: string; description: string; builtin: boolean; entity_guidance: string };
}
interface ContentEntry {
  type: string;
  path: string;
}

const firmwareText = [
  'The bootloader of the STM32 board verifies the firmware image before it jumps to the application.',
  'The watchdog timer resets the microcontroller when the main loop stalls for more than two seconds.',
].join(' ');
const technicalFile = new URL('../../packages/core/src/sources/domains/data/technical.json', import.meta.url);
const technical = () => JSON.parse(fs.readFileSync(technicalFile, 'utf8')) as Record<string, unknown>;

describe('custom domains travel in .ccx packages', () => {
  let server: TestServer;
  let cookie: string;
  let sourceId: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const useDatabase = async (name: string) => {
    const listed = (await call('GET', '/databases')).body as { databases?: { name: string }[] } | { name: string }[];
    const names = (Array.isArray(listed) ? listed : (listed.databases ?? [])).map((entry) => entry.name);
    if (!names.includes(name)) expect((await call('POST', '/databases', { name })).status).toBe(201);
    expect((await call('PATCH', '/databases/current', { name })).status).toBe(200);
  };
  const finished = async (taskId: string) => {
    const task = await waitForTask(call, taskId, { timeoutMs: 60_000 });
    expect(task.status, task.error ?? '').toBe('completed');
    return task.result as Record<string, unknown>;
  };
  const exported = async (route: string, body?: unknown) => {
    const accepted = await call('POST', route, body);
    expect(accepted.status, accepted.text).toBe(202);
    const result = await finished((accepted.body as { task_id: string }).task_id);
    return Buffer.from(result.content as string, 'base64');
  };
  const imported = async (bytes: Buffer) => {
    const accepted = await uploadSources(server, cookie, '/exports/import', [{ name: 'graph.ccx', content: bytes }], {
      merge: 'true',
    });
    expect(accepted.status, accepted.text).toBe(202);
    return finished((accepted.body as { task_id: string }).task_id);
  };
  const domain = async (name: string) => {
    const response = await call('GET', `/sources/domains/${name}`);
    return response.status === 200 ? (response.body as DomainEntry) : null;
  };
  const packagedDomains = async (bytes: Buffer) => {
    const entries = await entriesOf(bytes);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as {
      package_type: string[];
      contents: ContentEntry[];
    };
    const part = entries.get('domains.json');
    const names = part ? (JSON.parse(part.toString('utf8')) as { domains: { name: string }[] }).domains : [];
    return { manifest, names: names.map((entry) => entry.name).sort() };
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    for (const [name, description] of [
      ['firmware', 'Embedded firmware manuals'],
      ['hardware', 'Boards and chips'],
    ]) {
      const created = await call('POST', '/sources/domains', { copy_of: 'technical', name, description });
      expect(created.status, created.text).toBe(201);
    }
    const uploaded = await uploadSources(server, cookie, '/sources', [{ name: 'boot.txt', content: firmwareText }], {
      domain: 'firmware',
      auto_confirm: 'true',
    });
    expect(uploaded.status, uploaded.text).toBe(202);
    sourceId = (uploaded.body as SourceResponseBody).id;
    const committed = await waitForSource(server, cookie, sourceId, ['committed'], 60_000);
    expect(committed.extraction_domain).toBe('firmware');
  }, 90_000);
  afterAll(() => server.stop());

  it('a whole-graph export carries every custom domain in domains.json, outside package_type', async () => {
    const { manifest, names } = await packagedDomains(await exported('/exports'));
    expect(names).toEqual(['firmware', 'hardware']);
    expect(manifest.contents).toContainEqual(expect.objectContaining({ type: 'domains', path: 'domains.json' }));
    expect(manifest.package_type).not.toContain('domains');
  });

  it('an export by sources carries only the domains its sources were extracted under', async () => {
    const { names } = await packagedDomains(await exported('/exports/by_sources', [sourceId]));
    expect(names).toEqual(['firmware']);
  });

  it('an import into a fresh database adds the domains, and the source keeps its domain', async () => {
    const bytes = await exported('/exports');
    await useDatabase('fresh');
    try {
      expect(await domain('firmware')).toBeNull();
      const stats = await imported(bytes);
      expect(stats).toMatchObject({ domains_imported: 2, domains_skipped: 0, sources_imported: 1 });
      const firmware = await domain('firmware');
      expect(firmware).toMatchObject({
        origin: 'database',
        domain: { name: 'firmware', builtin: false, description: 'Embedded firmware manuals' },
      });
      const listed = (await call('GET', '/sources')).body as { data: SourceResponseBody[] };
      expect(listed.data.map((source) => [source.filename, source.extraction_domain])).toEqual([
        ['boot.txt', 'firmware'],
      ]);
      // Importing the same package again finds both domains present: nothing is added, nothing warned.
      const again = await imported(bytes);
      expect(again).toMatchObject({ domains_imported: 0, domains_skipped: 2 });
      expect((again.warnings as string[]).filter((warning) => warning.includes('Domain'))).toEqual([]);
    } finally {
      await useDatabase('default');
    }
  }, 90_000);

  it('keeps a different domain of the same name and a built-in one, and says so in the report', async () => {
    const bytes = await exported('/exports');
    await useDatabase('owner');
    try {
      const own = await call('POST', '/sources/domains', {
        copy_of: 'technical',
        name: 'firmware',
        description: 'This database’s own firmware domain',
      });
      expect(own.status, own.text).toBe(201);
      const stats = await imported(bytes);
      expect(stats).toMatchObject({ domains_imported: 1, domains_skipped: 1 });
      expect(stats.warnings).toContainEqual(expect.stringMatching(/Domain 'firmware' not imported: .*exists already/));
      expect((await domain('firmware'))?.domain.description).toBe('This database’s own firmware domain');
      expect((await domain('hardware'))?.origin).toBe('database');

      // A hand-made package naming a built-in domain, and one definition that does not validate.
      const forged = { ...technical(), name: 'legal', builtin: false, description: 'Not the legal domain' };
      const handMade = ccx2Package({
        'knowledge.jsonld': JSON.stringify({ nodes: [], edges: [] }),
        'domains.json': JSON.stringify({ domains: [forged, { name: 'half', description: 'no more' }] }),
      });
      const report = await imported(handMade);
      expect(report).toMatchObject({ domains_imported: 0, domains_skipped: 2 });
      expect(report.warnings).toContainEqual(expect.stringMatching(/'legal' is a built-in domain/));
      expect(report.warnings).toContainEqual(expect.stringMatching(/Domain 'half' not imported, it is not valid/));
      expect(await domain('legal')).toMatchObject({ origin: 'builtin', domain: { builtin: true } });
      expect((await domain('legal'))?.domain.description).not.toBe('Not the legal domain');
      expect(await domain('half')).toBeNull();
    } finally {
      await useDatabase('default');
    }
  }, 90_000);

  it('a domains.json of the wrong shape is left out with a warning; the rest imports', async () => {
    await useDatabase('shapes');
    try {
      const knowledge = {
        nodes: [{ id: 'n1', label: 'Watchdog timer', template_id: 'system_template_item', properties: {} }],
        edges: [],
      };
      const stats = await imported(
        ccx2Package({ 'knowledge.jsonld': JSON.stringify(knowledge), 'domains.json': '["firmware"]' }),
      );
      expect(stats).toMatchObject({ nodes_imported: 1, domains_imported: 0 });
      expect(stats.warnings).toContainEqual(expect.stringMatching(/Ignored 'domains.json'/));
    } finally {
      await useDatabase('default');
    }
  }, 60_000);
});
