import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import { DataPaths } from '@rhizome/core/paths';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { gzipped, tarArchive, zipArchive, zipWithRawName } from '../../packages/core/test/sources/unpack/archives.ts';

interface Batch {
  uploaded: number;
  failed: number;
  files: SourceResponseBody[];
  errors: { filename: string; error: string }[];
}

describe('archives uploaded as sources', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  const noIndex = { extract_entities: 'false' };
  const indexed = async (sources: SourceResponseBody[]) => {
    for (const source of sources) {
      const done = await waitForSource(server, cookie, source.id, ['indexed', 'error']);
      expect(done.status, `${source.filename}: ${done.error_message}`).toBe('indexed');
    }
  };
  /** File names of the sources whose passages a search finds, best first. */
  const cited = async (query: string, mode = 'keyword') => {
    const answer = await server.call('GET', `/search?q=${encodeURIComponent(query)}&search_type=${mode}&limit=10`, {
      cookie,
    });
    expect(answer.status, answer.text).toBe(200);
    const names = new Map<string, string>();
    for (const hit of (answer.body as { data: SearchResultBody[] }).data.filter((hit) => hit.chunk)) {
      const source = (await server.call('GET', `/sources/${hit.chunk!.source_id}`, { cookie }))
        .body as SourceResponseBody;
      names.set(source.id, source.filename!);
    }
    return [...names.values()];
  };
  /** Members written out and left in the uploads' directory: none once a request is answered. */
  const leftOver = () => {
    const incoming = path.join(new DataPaths(server.dataDir).databaseDir('default'), 'sources', '.incoming');
    return fs.existsSync(incoming) ? fs.readdirSync(incoming).filter((name) => name.endsWith('.member')) : [];
  };

  it('makes each member of a zip with nested folders a source, tagged with the archive, and lists the rest', async () => {
    const zip = await zipArchive([
      { name: 'harbour/tides.md', content: '# Tides\n\nThe glimmerfen tide turns at the north quay.\n' },
      { name: 'harbour/boats/ferry.txt', content: 'The ferry Marrowby crosses twice daily.\n' },
      { name: 'harbour/tool.bin', content: Buffer.from([0, 1, 2, 3, 0xff, 0, 0xfe, 0]) },
    ]);
    const batch = await uploadSources(
      server,
      cookie,
      '/sources/batch',
      [{ name: 'harbour.zip', content: zip }],
      noIndex,
    );
    expect(batch.status, batch.text).toBe(202);
    const body = batch.body as Batch;
    expect(body.files.map((file) => file.filename)).toEqual(['harbour/tides.md', 'harbour/boats/ferry.txt']);
    expect(body.files.every((file) => file.tags.some((tag) => tag.name === 'harbour.zip'))).toBe(true);
    expect(body.errors).toEqual([
      { filename: 'harbour/tool.bin', error: "'harbour/tool.bin' is not a file type Rhizome can read" },
    ]);
    expect([body.uploaded, body.failed]).toEqual([2, 1]);
    await indexed(body.files);
    expect(await cited('glimmerfen')).toEqual(['harbour/tides.md']);
    expect(await cited('Marrowby')).toEqual(['harbour/boats/ferry.txt']);
    expect(leftOver()).toEqual([]);
  }, 60_000);

  it('answers a single upload of a tar.gz with its first member and every source it became', async () => {
    const tar = tarArchive([
      { name: 'log/', type: '5' },
      { name: 'log/one.txt', content: 'The quillwort lamp was lit at dusk.\n' },
      { name: 'log/two.md', content: '# Two\n\nThe brindlecove bell rang at dawn.\n' },
    ]);
    const single = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'log.tgz', content: gzipped(tar) }],
      noIndex,
    );
    expect(single.status, single.text).toBe(202);
    const body = single.body as SourceResponseBody & { unpacked: { source_ids: string[]; errors: unknown[] } };
    expect(body.filename).toBe('log/one.txt');
    expect(body.unpacked.source_ids).toHaveLength(2);
    expect(body.unpacked.source_ids[0]).toBe(body.id);
    expect(body.unpacked.errors).toEqual([]);
    const second = (await server.call('GET', `/sources/${body.unpacked.source_ids[1]}`, { cookie }))
      .body as SourceResponseBody;
    await indexed([body, second]);
    expect(await cited('brindlecove')).toEqual(['log/two.md']);
    expect(await cited('quillwort')).toEqual(['log/one.txt']);
  }, 60_000);

  it('keeps links between the pages of a Markdown zip for graph search', async () => {
    const zip = await zipArchive([
      { name: 'index.md', content: '# Wiki Home\n\nThe saltmarrow ledger is kept by [the keeper](keeper.md).\n' },
      { name: 'keeper.md', content: '# Keeper\n\nA quiet woman who rows out each morning.\n' },
      { name: 'pages/lamps.md', content: '# Lamps\n\nThe tallowmere lamps are trimmed as [home](../index.md) says.\n' },
    ]);
    const batch = await uploadSources(server, cookie, '/sources/batch', [{ name: 'wiki.zip', content: zip }], noIndex);
    expect(batch.status, batch.text).toBe(202);
    await indexed((batch.body as Batch).files);
    expect(await cited('saltmarrow ledger')).toEqual(['index.md']);
    // Graph search reaches the linked page from the passage keyword search finds, in either folder.
    const fromHome = await cited('saltmarrow ledger', 'graph');
    expect(fromHome.slice(0, 2)).toEqual(['index.md', 'keeper.md']);
    const fromLamps = await cited('tallowmere lamps', 'graph');
    expect(fromLamps[0]).toBe('pages/lamps.md');
    expect(fromLamps).toContain('index.md');
    expect(await cited('tallowmere lamps')).toEqual(['pages/lamps.md']);

    // A link into a folder names the page by its path there.
    const guide = await zipArchive([
      {
        name: 'start.md',
        content: '# Start\n\nThe gorsewick tide tables are explained [here](deep/almanac.md).\n',
      },
      { name: 'deep/almanac.md', content: '# Reckoning\n\nSpring floods follow the new moon.\n' },
    ]);
    const guideBatch = await uploadSources(
      server,
      cookie,
      '/sources/batch',
      [{ name: 'guide.zip', content: guide }],
      noIndex,
    );
    await indexed((guideBatch.body as Batch).files);
    expect(await cited('gorsewick tide tables', 'graph')).toEqual(['start.md', 'deep/almanac.md']);
  }, 60_000);

  it('refuses a hostile or damaged archive with 422 naming the member, storing nothing', async () => {
    const before = (
      (await server.call('GET', '/sources?page_size=1', { cookie })).body as { pagination: { total: number } }
    ).pagination.total;
    const refused = async (name: string, content: Buffer) => {
      const single = await uploadSources(server, cookie, '/sources', [{ name, content }], noIndex);
      expect(single.status, single.text).toBe(422);
      const message = (single.body as { message: string }).message;
      const batch = await uploadSources(server, cookie, '/sources/batch', [{ name, content }], noIndex);
      expect((batch.body as Batch).errors).toEqual([{ filename: name, error: message }]);
      return message;
    };
    expect(await refused('up.zip', await zipWithRawName('../x.md', 'escape'))).toBe(
      `'up.zip' contains an unsafe entry name: "../x.md"; nothing of it was stored`,
    );
    expect(await refused('abs.tar', tarArchive([{ name: '/etc/x.md', content: 'x' }]))).toBe(
      "'abs.tar' holds '/etc/x.md', a path outside the archive; nothing of it was stored",
    );
    expect(
      await refused(
        'link.tar',
        tarArchive([
          { name: 'ok.txt', content: 'fine words' },
          { name: 'passwd', type: '2', linkname: '/etc/passwd' },
        ]),
      ),
    ).toBe("'link.tar' holds 'passwd', a SymbolicLink rather than a file; nothing of it was stored");
    expect(
      await refused('bomb.zip', await zipArchive([{ name: 'zeros.txt', content: Buffer.alloc(9 * 1024 * 1024) }])),
    ).toBe(
      "'bomb.zip' expands to more than 100 times its size, as a zip bomb does (at 'zeros.txt'); nothing of it was stored",
    );
    const broken = await zipArchive([{ name: 'a.txt', content: 'words '.repeat(2000) }]);
    broken.fill(0x55, 30, broken.length - 60);
    expect(await refused('broken.zip', broken)).toMatch(/^'broken.zip' (is damaged|is not a valid zip)/);
    const after = (
      (await server.call('GET', '/sources?page_size=1', { cookie })).body as { pagination: { total: number } }
    ).pagination.total;
    expect(after).toBe(before);
    expect(leftOver()).toEqual([]);
  }, 60_000);

  it('bounds members by batching.max_upload_bytes, alone and together', async () => {
    const limit = 64 * 1024;
    const settings = (bytes: number) =>
      server.call('PATCH', '/settings', { cookie, body: { batching: { max_upload_bytes: bytes } } });
    expect((await settings(limit)).status).toBe(200);
    try {
      const words = (count: number) =>
        Array.from({ length: count }, (_, index) => `w${(index * 7919) % 100_003}`).join(' ');
      const one = gzipped(tarArchive([{ name: 'big.txt', content: words(12_000) }]));
      const single = await uploadSources(server, cookie, '/sources', [{ name: 'big.tgz', content: one }], noIndex);
      expect(single.status, single.text).toBe(422);
      expect((single.body as { message: string }).message).toContain(
        `has a member larger than ${limit} bytes (batching.max_upload_bytes): 'big.txt'`,
      );
      const two = await zipArchive([
        { name: 'a.txt', content: words(6_000) },
        { name: 'b.txt', content: words(6_000) },
      ]);
      const both = await uploadSources(server, cookie, '/sources', [{ name: 'two.zip', content: two }], noIndex);
      expect(both.status, both.text).toBe(422);
      expect((both.body as { message: string }).message).toBe(
        `'two.zip' unpacks to more than the limit of ${limit} bytes; nothing of it was stored`,
      );
    } finally {
      await settings(5 * 1024 ** 3);
    }
  }, 60_000);
});
