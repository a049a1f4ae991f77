import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRhizome } from '../support/cli.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

async function pdfWith(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([600, 400]).drawText(text, { x: 40, y: 300, size: 12, font });
  return pdf.save();
}

/** The CLI as a child process against a real server, the way a person scripting the main job uses it. */
describe('the rhizome command line for the main job', () => {
  let server: TestServer;
  let key: string;
  let work: string;
  /** Runs the CLI with the server's URL and key in the environment, in its own config directory. */
  const rhizome = (args: string[], env: Record<string, string> = {}) =>
    runRhizome(args, work, { RHIZOME_URL: server.url, RHIZOME_API_KEY: key, ...env });
  const json = async <T>(args: string[]): Promise<T> => {
    const { code, output } = await rhizome([...args, '--json']);
    expect(code, output).toBe(0);
    return JSON.parse(output) as T;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'cli tests' } })).body as { key: string })
      .key;
    work = tempDataDir();
    fs.writeFileSync(
      path.join(work, 'lighthouse.pdf'),
      await pdfWith('The Kestrel Point lighthouse was built in 1871 by Miriam Holloway.'),
    );
    fs.mkdirSync(path.join(work, 'notes', 'deeper'), { recursive: true });
    fs.writeFileSync(
      path.join(work, 'notes', 'orchard.md'),
      '# Orchard\n\nThe Larchmont orchard grows forty varieties of heritage apple.',
    );
    fs.writeFileSync(
      path.join(work, 'notes', 'deeper', 'harbour.txt'),
      'The harbour at Kestrel Point freezes only in the coldest winters.',
    );
    fs.writeFileSync(path.join(work, 'notes', '.hidden.txt'), 'not a source');
  });
  afterAll(() => server.stop());

  it('adds a PDF and a directory with --wait and reports each source, then lists them', async () => {
    const added = await json<{ input: string; status: string; source_id: string }[]>([
      'add',
      path.join(work, 'lighthouse.pdf'),
      path.join(work, 'notes'),
      '--no-extract',
      '--wait',
      '--tag',
      'coast',
    ]);
    expect(added.map((entry) => path.relative(work, entry.input)).sort()).toEqual([
      'lighthouse.pdf',
      path.join('notes', 'deeper', 'harbour.txt'),
      path.join('notes', 'orchard.md'),
    ]);
    expect(added.every((entry) => entry.status === 'indexed')).toBe(true);
    const human = await rhizome(['sources', 'ls']);
    expect(human.code).toBe(0);
    expect(human.output).toMatch(/^ID +STATUS +CHUNKS +NAME/);
    expect(human.output).toContain('lighthouse.pdf');
    const listed = await json<{ id: string; tags: { name: string }[] }[]>(['sources', 'ls']);
    expect(listed).toHaveLength(3);
    expect(listed.every((source) => source.tags.some((tag) => tag.name === 'coast'))).toBe(true);
  }, 90_000);

  it('searches in every mode, with --json parsed', async () => {
    for (const mode of ['keyword', 'semantic', 'hybrid', 'graph']) {
      const result = await json<{ type: string; data: { chunk: { filename: string } | null }[] }>([
        'search',
        'Kestrel Point lighthouse',
        '--mode',
        mode,
      ]);
      expect(result.data.length, mode).toBeGreaterThan(0);
      expect(
        result.data.some((hit) => hit.chunk?.filename === 'lighthouse.pdf'),
        mode,
      ).toBe(true);
    }
    const human = await rhizome(['search', 'heritage apple', '--mode', 'keyword']);
    expect(human.output).toMatch(/^1\. \[\d\.\d\d\] orchard\.md/);
  }, 90_000);

  it('asks a question: the answer streams and ends with its sources as footnotes, in the search mode asked for', async () => {
    const { code, output } = await rhizome(['ask', 'When was the Kestrel Point lighthouse built?']);
    expect(code, output).toBe(0);
    expect(output).toContain('1871');
    expect(output).toMatch(/Sources:\n\[1\] lighthouse\.pdf, p\. 1/);
    const answer = await json<{ answer: string; citations: { index: number; filename: string }[] }>([
      'ask',
      'When was the Kestrel Point lighthouse built?',
    ]);
    expect(answer.citations[0]).toMatchObject({ index: 1, filename: 'lighthouse.pdf' });
    const keyword = await json<{ citations: { filename: string }[] }>([
      'ask',
      'When was the Kestrel Point lighthouse built?',
      '--mode',
      'keyword',
      '--database',
      'default',
    ]);
    expect(keyword.citations[0]).toMatchObject({ filename: 'lighthouse.pdf' });
    const badMode = await rhizome(['ask', 'When?', '--mode', 'fuzzy']);
    expect(badMode.code).toBe(2);
    expect(badMode.output).toContain("'fuzzy' is invalid");
  }, 60_000);

  it('chat MESSAGE answers at once, from the sources -s names only, below the -S instructions', async () => {
    const question = 'When was the Kestrel Point lighthouse built?';
    const listed = await json<{ id: string; filename: string }[]>(['sources', 'ls']);
    const idOf = (name: string) => listed.find((source) => source.filename === name)!.id;
    const whole = await json<{ citations: { filename: string }[] }>(['chat', question]);
    expect(whole.citations.map((citation) => citation.filename)).toContain('lighthouse.pdf');
    const scoped = await json<{ citations: { filename: string }[] }>([
      'chat',
      question,
      '-s',
      idOf('harbour.txt'),
      '-s',
      idOf('orchard.md'),
      '-S',
      'Answer in one sentence.',
    ]);
    expect(scoped.citations.map((citation) => citation.filename)).not.toContain('lighthouse.pdf');
    const unknown = await rhizome(['chat', question, '-s', 'src_missing']);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('src_missing');
  }, 60_000);

  it('exports a package and imports it back', async () => {
    const target = path.join(work, 'kb.ccx');
    const exported = await json<{ file: string; bytes: number }>(['export', target]);
    expect(exported.file).toBe(target);
    expect(fs.statSync(target).size).toBe(exported.bytes);
    for (const source of await json<{ id: string }[]>(['sources', 'ls']))
      expect((await rhizome(['sources', 'rm', source.id])).code).toBe(0);
    expect(await json<unknown[]>(['sources', 'ls'])).toHaveLength(0);
    await json(['import', target]);
    const restored = await json<{ filename: string }[]>(['sources', 'ls']);
    expect(restored.map((source) => source.filename).sort()).toEqual(['harbour.txt', 'lighthouse.pdf', 'orchard.md']);
  }, 90_000);

  it('creates and revokes a key: the revoked key is refused with exit code 4', async () => {
    const created = await json<{ id: string; key: string }>(['key', 'create', 'laptop']);
    expect((await rhizome(['status'], { RHIZOME_API_KEY: created.key })).code).toBe(0);
    expect((await json<{ id: string }[]>(['key', 'ls'])).map((entry) => entry.id)).toContain(created.id);
    expect((await rhizome(['key', 'revoke', created.id])).code).toBe(0);
    const refused = await rhizome(['status'], { RHIZOME_API_KEY: created.key });
    expect(refused.code).toBe(4);
    expect(refused.output).toMatch(/^rhizome: .*rhizome login/);
  }, 60_000);

  it('stores a login in the config directory readable by its owner only, and uses it', async () => {
    const configDir = path.join(work, 'login-config');
    const env = { RHIZOME_CONFIG_DIR: configDir, RHIZOME_API_KEY: '', RHIZOME_URL: '' };
    const login = await runRhizome(['login', '--url', server.url, '--api-key', key], work, env);
    expect(login.code, login.output).toBe(0);
    const file = path.join(configDir, 'cli.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ url: server.url, api_key: key });
    expect((await runRhizome(['status', '--url', server.url], work, env)).code).toBe(0);
  }, 60_000);

  it('exits non-zero with one line on errors: no server 3, a missing file 5, a bad usage 2, a refused request 1', async () => {
    const unreachable = await rhizome(['status'], { RHIZOME_URL: 'http://127.0.0.1:9' });
    expect(unreachable.code).toBe(3);
    expect(unreachable.output).toMatch(/^rhizome: no Rhizome server answers at http:\/\/127\.0\.0\.1:9/);
    const missing = await rhizome(['add', path.join(work, 'nope.pdf')]);
    expect(missing.code).toBe(5);
    expect(missing.output.trim()).toBe(`rhizome: '${path.join(work, 'nope.pdf')}' does not exist and matches no file`);
    const badMode = await rhizome(['search', 'x', '--mode', 'psychic']);
    expect(badMode.code).toBe(2);
    const refused = await rhizome(['backup', 'restore', '../../etc/passwd']);
    expect([1, 5]).toContain(refused.code);
    expect(refused.output).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('prints completion scripts for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const { code, output } = await rhizome(['completion', shell]);
      expect(code).toBe(0);
      expect(output).toContain('rhizome');
      expect(output).toContain('search');
    }
    const plural = await rhizome(['completions', 'bash']);
    expect(plural.code).toBe(0);
    expect(plural.output).toBe((await rhizome(['completion', 'bash'])).output);
  }, 60_000);
});
