import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseHeader } from '@rhizome/contracts/api/databases';
import { startCliServer, type CliServer } from '../support/cli.ts';

// Every command is a process of its own, which takes seconds on a loaded machine.
const patience = 120_000;

interface Listed {
  id: string;
  filename: string;
}

/** `-d/--database` sends a command's requests to another database than the server's active one. */
describe('rhizome -d/--database', () => {
  let cli: CliServer;
  const serverGet = (apiPath: string, headers: Record<string, string> = {}) =>
    cli.server.call('GET', apiPath, { cookie: cli.cookie, headers });
  const json = async <T>(args: string[]): Promise<T> => {
    const { code, output } = await cli.rhizome([...args, '--json']);
    expect(code, output).toBe(0);
    return JSON.parse(output) as T;
  };

  beforeAll(async () => {
    cli = await startCliServer();
    expect((await cli.server.call('POST', '/databases', { cookie: cli.cookie, body: { name: 'atlas' } })).status).toBe(
      201,
    );
    fs.writeFileSync(path.join(cli.work, 'tides.md'), '# Tides\n\nThe Kestrel estuary floods twice a day at springs.');
  }, 60_000);
  afterAll(() => cli.server.stop());

  it(
    'adds, lists, searches and creates nodes in the named database while the active one stays untouched',
    async () => {
      const added = await json<{ status: string; source_id: string }[]>([
        'add',
        path.join(cli.work, 'tides.md'),
        '--no-extract',
        '--wait',
        '-d',
        'atlas',
      ]);
      expect(added.map((entry) => entry.status)).toEqual(['indexed']);

      const inAtlas = await json<Listed[]>(['sources', 'ls', '--database', 'atlas']);
      expect(inAtlas.map((source) => source.filename)).toEqual(['tides.md']);
      expect(await json<Listed[]>(['sources', 'ls'])).toEqual([]);
      const fromServer = (await serverGet('/sources', { [databaseHeader]: 'atlas' })).body as { data: Listed[] };
      expect(fromServer.data.map((source) => source.id)).toEqual([added[0].source_id]);

      const found = await json<{ data: { chunk: { filename: string } | null }[] }>([
        'search',
        'Kestrel estuary',
        '--mode',
        'keyword',
        '-d',
        'atlas',
      ]);
      expect(found.data.map((hit) => hit.chunk?.filename)).toContain('tides.md');

      expect((await cli.rhizome(['graph', 'template', 'create', '-n', 'Tide', '-d', 'atlas'])).code).toBe(0);
      const created = await cli.rhizome(['graph', 'node', 'create', '-t', 'Tide', '-l', 'Spring tide', '-d', 'atlas']);
      expect(created.code, created.output).toBe(0);
      const labels = async (headers: Record<string, string>) =>
        ((await serverGet('/nodes?page_size=100', headers)).body as { data: { label: string }[] }).data.map(
          (node) => node.label,
        );
      expect(await labels({ [databaseHeader]: 'atlas' })).toContain('Spring tide');
      expect(await labels({})).not.toContain('Spring tide');
      const defaultTemplates = await cli.rhizome(['graph', 'template', 'get', 'Tide']);
      expect(defaultTemplates.code).toBe(5);
      expect(((await serverGet('/databases/current')).body as { current: string }).current).toBe('default');
    },
    patience,
  );

  it(
    'an unknown database is a 404 naming it, and leaves nothing behind — not even for an upload',
    async () => {
      const listed = await cli.rhizome(['sources', 'ls', '-d', 'nowhere']);
      expect(listed.code).toBe(5);
      expect(listed.output).toContain("database 'nowhere' not found");

      const form = new FormData();
      form.append('file', new Blob(['Text that must not be stored anywhere.']), 'stray.txt');
      const upload = await fetch(`${cli.server.base}/sources`, {
        method: 'POST',
        headers: { cookie: cli.cookie, [databaseHeader]: 'nowhere' },
        body: form,
      });
      expect(upload.status).toBe(404);
      expect(((await upload.json()) as { error: string }).error).toBe('NOT_FOUND');
      const names = ((await serverGet('/databases')).body as { databases: { name: string }[] }).databases.map(
        (database) => database.name,
      );
      expect(names).toEqual(['atlas', 'default']);
      expect(((await serverGet('/sources')).body as { data: unknown[] }).data).toEqual([]);
    },
    patience,
  );
});
