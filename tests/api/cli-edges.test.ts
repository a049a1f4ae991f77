import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cliPackage from '../../packages/cli/package.json' with { type: 'json' };
import { runRhizome, spawnRhizome } from '../support/cli.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { waitForSource } from '../support/sources.ts';

/** A stack trace's frames ("    at fn (file:line)"): an operator's error must not print one. */
const stackFrame = /^\s+at .+\(?.+:\d+/m;

async function pdfWith(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([600, 400]).drawText(text, { x: 40, y: 300, size: 12, font });
  return pdf.save();
}

/** The CLI against a real server where what it meets is not the happy path: decisions, closed pipes, no key. */
describe('the rhizome command line at its edges', () => {
  let server: TestServer;
  let cookie: string;
  let key: string;
  let work: string;
  const rhizome = (args: string[], env: Record<string, string> = {}) =>
    runRhizome(args, work, { RHIZOME_URL: server.url, RHIZOME_API_KEY: key, ...env }, 110_000);

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'cli edges' } })).body as { key: string })
      .key;
    work = tempDataDir();
    fs.writeFileSync(path.join(work, 'a.pdf'), await pdfWith('The Kestrel Point lighthouse was built in 1871.'));
    fs.writeFileSync(path.join(work, 'b.txt'), 'The Larchmont orchard grows forty varieties of heritage apple.');
  });
  afterAll(() => server.stop());

  it('add --wait says which sources wait for a decision, how to give it, and exits 6', async () => {
    const { code, output } = await rhizome(['add', path.join(work, 'a.pdf'), path.join(work, 'b.txt'), '--wait']);
    expect(code, output).toBe(6);
    expect(output).not.toContain('2 of 2 processed');
    expect(output).toMatch(/0 of 2 processed, 2 waiting for a decision/);
    const sources = (await server.call('GET', '/sources', { cookie })).body as {
      data: { id: string; filename: string; status: string }[];
    };
    expect(sources.data.map((source) => source.status)).toEqual(['awaiting_confirmation', 'awaiting_confirmation']);
    for (const source of sources.data) {
      expect(output).toContain(`${path.join(work, source.filename)}: waiting for its domain to be confirmed`);
      expect(output).toContain(`rhizome sources confirm ${source.id}`);
    }
    const json = await rhizome(['add', path.join(work, 'b.txt'), '--wait', '--json']);
    expect(json.code, json.output).toBe(6);
    expect((JSON.parse(json.output) as { status: string }[])[0].status).toBe('awaiting_confirmation');
  }, 120_000);

  it('reextract on a parked source says how to confirm it and exits 6; confirm releases it', async () => {
    const parked = (
      (await server.call('GET', '/sources?status=awaiting_confirmation', { cookie })).body as {
        data: { id: string }[];
      }
    ).data[0].id;
    const refused = await rhizome(['sources', 'reextract', parked]);
    expect(refused.code, refused.output).toBe(6);
    expect(refused.output).toContain(`${parked}: waiting for its domain to be confirmed`);
    expect(refused.output).toContain(`rhizome sources confirm ${parked}`);
    expect(refused.output).not.toContain('re-extraction queued');
    const confirmed = await rhizome(['sources', 'confirm', parked]);
    expect(confirmed.code, confirmed.output).toBe(0);
    expect(confirmed.output).toMatch(new RegExp(`^${parked}: confirmed`, 'm'));
    const source = await waitForSource(server, cookie, parked, ['extracting', 'extracted', 'committed', 'error']);
    expect(source.status).not.toBe('error');
    const again = await rhizome(['sources', 'confirm', parked]);
    expect(again.code).toBe(1);
  }, 120_000);

  it('exits quietly when the reader of its output goes away (search | head)', async () => {
    const cut = await rhizome(['add', path.join(work, 'b.txt'), '--no-extract', '--wait']);
    expect(cut.code, cut.output).toBe(0);
    const run = spawnRhizome(['search', 'heritage apple orchard', '--mode', 'keyword'], work, {
      RHIZOME_URL: server.url,
      RHIZOME_API_KEY: key,
    });
    // What `head` does once it has its lines: the reading end of the pipe closes.
    run.child.stdout!.destroy();
    expect(await run.exited).toBe(0);
    expect(run.output()).not.toMatch(/EPIPE/);
    expect(run.output()).not.toMatch(stackFrame);
  }, 60_000);

  it('says that no credential is configured, and how to give one, when there is no key', async () => {
    const env = { RHIZOME_API_KEY: '', RHIZOME_CONFIG_DIR: path.join(work, 'no-login') };
    const { code, output } = await rhizome(['status'], env);
    expect(code).toBe(4);
    expect(output).not.toMatch(/session/i);
    expect(output).toContain('rhizome: no credential is configured');
    expect(output).toContain('rhizome login');
    expect(output).toContain('RHIZOME_API_KEY');
  }, 60_000);

  it('prints its version for --version and -V, the version the server reports', async () => {
    const edition = (await server.call('GET', '/edition', { cookie })).body as { version: string };
    for (const flag of ['--version', '-V']) {
      const { code, output } = await runRhizome([flag], tempDataDir());
      expect(code, output).toBe(0);
      expect(output.trim()).toBe(cliPackage.version);
      expect(output.trim()).toBe(edition.version);
    }
  }, 60_000);

  it("names an entity's template by its display name in search results", async () => {
    const created = await server.call('POST', '/nodes', {
      cookie,
      body: {
        template_id: 'system_template_item',
        label: 'Quillfeather lantern',
        properties: { definition: 'a lamp' },
      },
    });
    expect(created.status, created.text).toBe(201);
    const { code, output } = await rhizome(['search', 'Quillfeather lantern', '--mode', 'keyword']);
    expect(code, output).toBe(0);
    expect(output).toMatch(/\d+\. \[\d\.\d\d\] Quillfeather lantern \(Item, 0 edges\)/);
    expect(output).not.toContain('system_template_item');
  }, 60_000);
});
