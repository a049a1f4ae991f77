import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import { DataPaths } from '@rhizome/core/paths';
import { openSqlite } from '@rhizome/core/storage';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource, type UploadFile } from '../support/sources.ts';

/**
 * Graph search over files named by number (0001.md …), with no entity extraction: the only ways from
 * the passage keyword search finds to another document are a title found in the text, an alias of that
 * title, or a link the document makes. Each query's rare word is in the linking passage only, so
 * keyword search alone never reaches the target.
 */
describe('links between documents in graph search', () => {
  let server: TestServer;
  let cookie: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  const upload = async (files: UploadFile[]) => {
    const batch = await uploadSources(server, cookie, '/sources/batch', files, { extract_entities: 'false' });
    expect(batch.status, batch.text).toBe(202);
    for (const file of (batch.body as { files: SourceResponseBody[] }).files) {
      const source = await waitForSource(server, cookie, file.id, ['indexed', 'error']);
      expect(source.status, `${file.filename}: ${source.error_message}`).toBe('indexed');
      ids[file.filename!] = file.id;
    }
  };

  /** The file names of the sources whose passages a search returns, best first. */
  const found = async (query: string, mode: 'graph' | 'keyword' = 'graph') => {
    const answer = await server.call('GET', `/search?q=${encodeURIComponent(query)}&search_type=${mode}&limit=10`, {
      cookie,
    });
    expect(answer.status, answer.text).toBe(200);
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    return (answer.body as { data: SearchResultBody[] }).data
      .filter((hit) => hit.chunk)
      .map((hit) => names[hit.chunk!.source_id]);
  };

  /** Rows of a table of the default database that concern `sourceId`. */
  const rowsOf = async (table: 'document_links' | 'source_names', sourceId: string) => {
    const db = openSqlite(new DataPaths(server.dataDir).appDb('default'));
    try {
      return (await db(table).where({ source_id: sourceId })) as Record<string, unknown>[];
    } finally {
      await db.destroy();
    }
  };

  it('follows a Markdown link, a wiki link and an HTML anchor to the document they point to', async () => {
    await upload([
      {
        name: '0001.md',
        content: '# Harbour Almanac\n\nThe zanzibarite tide tables were kept by [the keeper](0002.md) every spring.\n',
      },
      { name: '0002.md', content: '# Keeper Notes\n\nA quiet man who rowed out each morning.\n' },
      {
        name: '0003.md',
        content: '# Orchard Ledger\n\nThe quillbarrow apples were graded as [[grafting manual|the manual]] says.\n',
      },
      { name: '0004.txt', content: 'Grafting Manual\n\nCut the scion at a slant before dawn.\n' },
      {
        name: '0005.html',
        content:
          '<!doctype html><html><body><main><h1>Ferry Timetable</h1><p>The wexfordine crossing leaves at noon; ' +
          'see <a href="0006.html">the rules of the pier</a>.</p></main></body></html>',
      },
      {
        name: '0006.html',
        content:
          '<!doctype html><html><body><main><h1>Pier Rules</h1><p>No fishing from the landing stage.</p></main></body></html>',
      },
    ]);
    expect(await found('zanzibarite tide tables', 'keyword')).toEqual(['0001.md']);
    expect(await found('zanzibarite tide tables')).toEqual(['0001.md', '0002.md']);
    expect(await found('quillbarrow apples')).toEqual(['0003.md', '0004.txt']);
    expect(await found('wexfordine crossing')).toEqual(['0005.html', '0006.html']);
    expect(await rowsOf('document_links', ids['0005.html'])).toMatchObject([
      { syntax: 'html', target: '0006.html', target_key: '0006', anchor: 'the rules of the pier' },
    ]);
  }, 60_000);

  it('reaches a document through its title or an alias of it named in the text', async () => {
    await upload([
      {
        name: '0011.txt',
        content: 'Madame X\n\nMadame X is a silent film directed by Frank Lloyd at the saltmarsh studios.\n',
      },
      { name: '0012.txt', content: 'Frank Lloyd\n\nHe began as a stage actor in Glasgow.\n' },
      {
        name: '0013.txt',
        content:
          'Nicki Minaj\n\nOnika Tanya Maraj-Petty, known professionally as Nicki Minaj, is a rapper from Queens.\n',
      },
      { name: '0014.txt', content: 'Pink Friday\n\nPink Friday is a plumwater album by Onika Tanya Maraj-Petty.\n' },
    ]);
    expect(await found('saltmarsh studios')).toEqual(['0011.txt', '0012.txt']);
    expect(await found('plumwater album')).toEqual(['0014.txt', '0013.txt']);
    expect(await rowsOf('source_names', ids['0013.txt'])).toContainEqual(
      expect.objectContaining({ kind: 'alias', name: 'Onika Tanya Maraj-Petty' }),
    );
  }, 60_000);

  it('resolves a link when its target arrives later, and drops it with the linking source', async () => {
    await upload([
      {
        name: '0007.md',
        content: '# Tide Gauge\n\nThe brackwater gauge readings follow [the calibration note](0008.md).\n',
      },
    ]);
    expect(await found('brackwater gauge readings')).toEqual(['0007.md']);
    await upload([{ name: '0008.md', content: '# Calibration\n\nZero the float at the spring low.\n' }]);
    expect(await found('brackwater gauge readings')).toEqual(['0007.md', '0008.md']);

    expect(await rowsOf('document_links', ids['0007.md'])).toHaveLength(1);
    expect((await server.call('DELETE', `/sources/${ids['0007.md']}`, { cookie })).status).toBe(204);
    expect(await rowsOf('document_links', ids['0007.md'])).toEqual([]);
    expect(await rowsOf('source_names', ids['0007.md'])).toEqual([]);
    expect(await rowsOf('source_names', ids['0008.md'])).not.toEqual([]);
  }, 60_000);
});
