import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ccx2Package } from '../support/ccx-build.ts';
import { runRhizome } from '../support/cli.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { waitForTask } from '../support/wait.ts';

const ada = { id: 'n1', label: 'Ada Lovelace', template_id: 'system_template_person', properties: {} };

/** `rhizome import` as a child process: it merges unless told to replace, and says which it did. */
describe('rhizome import: merge or replace', () => {
  let server: TestServer;
  let cookie: string;
  let key: string;
  let work: string;
  let pkg: string;
  const rhizome = (args: string[]) => runRhizome(args, work, { RHIZOME_URL: server.url, RHIZOME_API_KEY: key });
  const labels = async () =>
    ((await server.call('GET', '/nodes?page_size=100', { cookie })).body as { data: { label: string }[] }).data
      .map((node) => node.label)
      .sort();

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'cli' } })).body as { key: string }).key;
    work = tempDataDir();
    pkg = path.join(work, 'ada.ccx');
    fs.writeFileSync(pkg, ccx2Package({ 'knowledge.jsonld': JSON.stringify({ nodes: [ada], edges: [] }) }));
    const created = await server.call('POST', '/nodes', {
      cookie,
      body: { label: 'Charles Babbage', template_id: 'system_template_person', properties: {} },
    });
    expect(created.status, created.text).toBe(201);
  });
  afterAll(() => server.stop());

  it('merges by default and says so', async () => {
    const { code, output } = await rhizome(['import', pkg]);
    expect(code, output).toBe(0);
    expect(output).toContain(`Imported ${pkg} (merged with what was there)`);
    expect(await labels()).toEqual(['Ada Lovelace', 'Charles Babbage']);
  }, 60_000);

  it('refuses --merge with --replace, changing nothing', async () => {
    const { code, output } = await rhizome(['import', pkg, '--merge', '--replace']);
    expect(code, output).toBe(2);
    expect(output).toContain('Give --merge or --replace, not both');
    expect(await labels()).toEqual(['Ada Lovelace', 'Charles Babbage']);
  }, 60_000);

  it('replaces with --replace and names the safety backup that undoes it', async () => {
    const { code, output } = await rhizome(['import', pkg, '--replace', '--json']);
    expect(code, output).toBe(0);
    const reported = JSON.parse(output) as { mode: string; safety_backup: string };
    expect(reported).toMatchObject({ status: 'completed', mode: 'replace' });
    expect(reported.safety_backup).toMatch(/^pre-import_/);
    expect(await labels()).toEqual(['Ada Lovelace']);
    const restored = await server.call('POST', `/backup/${reported.safety_backup}/restore`, { cookie });
    expect(restored.status, restored.text).toBe(200);
    expect(await labels()).toEqual(['Ada Lovelace', 'Charles Babbage']);
    const { vector_task_id } = restored.body as { vector_task_id: string };
    expect(
      await waitForTask((method, apiPath) => server.call(method, apiPath, { cookie }), vector_task_id),
    ).toMatchObject({ status: 'completed' });
  }, 60_000);

  it('graph package export writes what its flags keep, and graph package load merges it back', async () => {
    const packed = async (args: string[]) => {
      const file = path.join(work, `${args.join('_').replace(/[^a-z]/g, '') || 'all'}.ccx`);
      const { code, output } = await rhizome(['graph', 'package', 'export', '-o', file, ...args]);
      expect(code, output).toBe(0);
      expect(output).toContain(`Exported to ${file}`);
      const zip = await JSZip.loadAsync(fs.readFileSync(file));
      const knowledge = await zip.file(/knowledge\.jsonld$/)[0]?.async('string');
      return { file, knowledge: knowledge ?? '' };
    };
    const whole = await packed([]);
    expect(whole.knowledge).toContain('Ada Lovelace');
    expect((await packed(['--no-knowledge', '--no-sources'])).knowledge).not.toContain('Ada Lovelace');

    const both = await rhizome(['graph', 'package', 'export', 'a.ccx', '-o', 'b.ccx']);
    expect(both.code).toBe(2);

    const loaded = await rhizome(['graph', 'package', 'load', whole.file]);
    expect(loaded.code, loaded.output).toBe(0);
    expect(loaded.output).toContain('merged with what was there');
    expect(await labels()).toEqual(['Ada Lovelace', 'Charles Babbage']);
  }, 90_000);
});
