import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRhizome } from '../support/cli.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { gzipped, tarArchive, zipArchive } from '../../packages/core/test/sources/unpack/archives.ts';

/** `rhizome add` with a folder holding an archive, a mailbox, a hidden file and a file it cannot read. */
describe('rhizome add with archives and folders', () => {
  let server: TestServer;
  let key: string;
  let work: string;
  const rhizome = (args: string[]) => runRhizome(args, work, { RHIZOME_URL: server.url, RHIZOME_API_KEY: key });

  beforeAll(async () => {
    server = await startTestServer();
    const cookie = await setUpAccount(server);
    key = (
      (await server.call('POST', '/auth/keys', { cookie, body: { name: 'cli archives' } })).body as { key: string }
    ).key;
    work = tempDataDir();
    const drop = path.join(work, 'drop');
    fs.mkdirSync(path.join(drop, 'nested'), { recursive: true });
    fs.writeFileSync(
      path.join(drop, 'wiki.zip'),
      await zipArchive([
        { name: 'pages/home.md', content: '# Home\n\nThe fernwhistle beacon guards the bay.\n' },
        { name: 'pages/blob.bin', content: Buffer.from([0, 1, 2, 3, 0xff, 0, 0xfe, 0]) },
      ]),
    );
    fs.writeFileSync(
      path.join(drop, 'nested', 'logs.tar.gz'),
      gzipped(tarArchive([{ name: 'day1.txt', content: 'The cobblewick crane lifted nine crates.\n' }])),
    );
    fs.writeFileSync(
      path.join(drop, 'nested', 'note.eml'),
      'From: Ada <ada@harbour.example>\nTo: office@harbour.example\nSubject: Gull count\n\nThe tarnquill gulls number forty.\n',
    );
    fs.writeFileSync(path.join(drop, '.hidden.md'), '# Hidden\n');
    fs.writeFileSync(path.join(drop, 'plain.md'), '# Plain\n\nThe marshlight path is closed.\n');
  });
  afterAll(() => server.stop());

  it('adds every member of archives in a folder, reports the member it refuses, and skips hidden files', async () => {
    const { code, output } = await rhizome(['add', path.join(work, 'drop'), '--no-extract', '--wait', '--json']);
    expect(code, output).toBe(1);
    const added = (JSON.parse(output) as { input: string; status: string; error: string | null }[]).map((entry) => ({
      input: path.relative(work, entry.input),
      status: entry.status,
      error: entry.error,
    }));
    expect(added.sort((a, b) => a.input.localeCompare(b.input))).toEqual([
      { input: path.join('drop', 'nested', 'logs.tar.gz: day1.txt'), status: 'indexed', error: null },
      { input: path.join('drop', 'nested', 'note.eml: note.eml'), status: 'indexed', error: null },
      { input: path.join('drop', 'plain.md'), status: 'indexed', error: null },
      {
        input: path.join('drop', 'wiki.zip: pages/blob.bin'),
        status: 'error',
        error: "'pages/blob.bin' is not a file type Rhizome can read",
      },
      { input: path.join('drop', 'wiki.zip: pages/home.md'), status: 'indexed', error: null },
    ]);
    for (const [query, filename] of [
      ['fernwhistle', 'pages/home.md'],
      ['cobblewick', 'day1.txt'],
      ['tarnquill', 'note.eml'],
    ]) {
      const { data } = JSON.parse((await rhizome(['search', query, '--mode', 'keyword', '--json'])).output) as {
        data: { chunk: { filename: string } | null }[];
      };
      expect(
        data.map((hit) => hit.chunk?.filename),
        query,
      ).toEqual([filename]);
    }
  }, 90_000);

  it('says which member it refused in its human report', async () => {
    const { code, output } = await rhizome(['add', path.join(work, 'drop', 'wiki.zip'), '--no-extract']);
    expect(code).toBe(1);
    expect(output).toContain(
      `${path.join(work, 'drop', 'wiki.zip')}: pages/blob.bin: 'pages/blob.bin' is not a file type Rhizome can read`,
    );
    expect(output).toContain('1 of 2 accepted, 1 failed');
  }, 60_000);
});
