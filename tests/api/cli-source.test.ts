import fs from 'node:fs';
import path from 'node:path';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../support/cli.ts';
import { waitForSource } from '../support/sources.ts';

/** `rhizome source …` (the same group as `sources`) and the upload options of `rhizome add`, against a real server. */
describe('rhizome source and add options', () => {
  let cli: CliServer;
  let fileA: string;
  let fileB: string;

  beforeAll(async () => {
    cli = await startCliServer();
    fileA = path.join(cli.work, 'orchard.txt');
    fileB = path.join(cli.work, 'lighthouse.txt');
    fs.writeFileSync(fileA, 'The Larchmont orchard grows forty varieties of heritage apple.');
    fs.writeFileSync(fileB, 'The Kestrel Point lighthouse was built in 1871 by Ada Lovell.');
  }, 60_000);
  afterAll(() => cli.server.stop());

  const sourceOf = async (id: string) =>
    (await cli.server.call('GET', `/sources/${id}`, { cookie: cli.cookie })).body as SourceResponseBody;

  it('add maps its options onto the upload fields', async () => {
    const { code, output } = await cli.rhizome([
      'add',
      fileA,
      '--no-extract',
      '--no-vision',
      '--normalize',
      '--no-content-filtering',
      '--filtering-mode',
      'strict',
      '--quick',
      '--domain',
      'agriculture',
      '--json',
    ]);
    expect(code, output).toBe(0);
    const [added] = JSON.parse(output) as { source_id: string }[];
    const source = await sourceOf(added.source_id);
    expect(source).toMatchObject({
      extract_entities: false,
      enable_vision: false,
      enable_normalization: true,
      content_filtering: false,
      filtering_mode: 'strict',
      extraction_depth: 'quick',
      forced_domain: 'agriculture',
    });
    const again = await cli.rhizome(['add', fileA, '--no-extract', '--skip-duplicates', '--json']);
    expect(again.code, again.output).toBe(0);
    const bad = await cli.rhizome(['add', fileA, '--filtering-mode', 'sloppy']);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain("'sloppy'");
  }, 60_000);

  it('source add (as add), then source list, get and search show it; --limit and --awaiting filter it', async () => {
    const added = await cli.rhizome(['source', 'add', fileB, '--no-extract', '--json']);
    expect(added.code, added.output).toBe(0);
    const [{ source_id: id }] = JSON.parse(added.output) as { source_id: string }[];
    await waitForSource(cli.server, cli.cookie, id, ['indexed']);
    const listed = await cli.rhizome(['source', 'list', '--format', 'json']);
    expect(listed.code, listed.output).toBe(0);
    const ids = (JSON.parse(listed.output) as SourceResponseBody[]).map((source) => source.id);
    expect(ids).toContain(id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const limited = await cli.rhizome(['source', 'list', '-n', '1', '--json']);
    expect(JSON.parse(limited.output)).toHaveLength(1);
    const awaiting = await cli.rhizome(['source', 'list', '--awaiting', '--json']);
    expect(JSON.parse(awaiting.output)).toEqual([]);
    const table = await cli.rhizome(['source', 'list', '--status', 'indexed']);
    expect(table.output).toMatch(new RegExp(`${id}\\s+indexed`));
    const shown = await cli.rhizome(['source', 'get', id]);
    expect(shown.code, shown.output).toBe(0);
    expect(shown.output).toMatch(/status\s+indexed/);
    expect(shown.output).toContain('lighthouse.txt');
    const missing = await cli.rhizome(['source', 'get', 'no-such-source']);
    expect(missing.code).toBe(5);
    const found = await cli.rhizome(['source', 'search', 'Kestrel lighthouse', '--mode', 'keyword', '--json']);
    expect(found.code, found.output).toBe(0);
    const hits = (JSON.parse(found.output) as { data: { chunk: { source_id?: string; content: string } | null }[] })
      .data;
    expect(hits.some((hit) => hit.chunk?.content.includes('Kestrel'))).toBe(true);
    const rebuilt = await cli.rhizome(['source', 'rebuild-search', '--json']);
    expect(rebuilt.code, rebuilt.output).toBe(0);
    expect(JSON.parse(rebuilt.output)).toHaveProperty('message');
  }, 90_000);

  it('source confirm needs ids or --all; source extract queues an extraction', async () => {
    const none = await cli.rhizome(['source', 'confirm']);
    expect(none.code).toBe(2);
    expect(none.output).toContain('--all');
    const nothing = await cli.rhizome(['source', 'confirm', '--all']);
    expect(nothing.code, nothing.output).toBe(0);
    expect(nothing.output).toContain('No source waits');
    const [indexed] = (
      (await cli.server.call('GET', '/sources?status=indexed', { cookie: cli.cookie })).body as {
        data: SourceResponseBody[];
      }
    ).data;
    const extracted = await cli.rhizome([
      'source',
      'extract',
      indexed.id,
      '--depth',
      'quick',
      '--domain',
      'historical',
    ]);
    expect([0, 6], extracted.output).toContain(extracted.code);
    expect((await sourceOf(indexed.id)).status).not.toBe('indexed');
    const badDepth = await cli.rhizome(['source', 'extract', indexed.id, '--depth', 'deep']);
    expect(badDepth.code).toBe(2);
  }, 90_000);

  it('source delete removes a source', async () => {
    const added = await cli.rhizome(['add', fileB, '--no-extract', '--skip-duplicates', '--json']);
    const listed = JSON.parse((await cli.rhizome(['source', 'list', '--json'])).output) as SourceResponseBody[];
    expect(added.code, added.output).toBe(0);
    const target = listed.at(-1)!.id;
    const deleted = await cli.rhizome(['source', 'delete', target, '--force']);
    expect(deleted.code, deleted.output).toBe(0);
    expect(deleted.output).toContain(`${target}: deleted`);
    expect((await cli.server.call('GET', `/sources/${target}`, { cookie: cli.cookie })).status).toBe(404);
  }, 60_000);
});
