import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataPaths } from '../../src/paths.ts';
import { createGraphSearch, graphAdjacency, passageGraph, readGraphVersion } from '../../src/search/graph/index.ts';
import type { SearchScope } from '../../src/search/types.ts';
import { recordDocumentLinks } from '../../src/sources/links/record.ts';
import type { LoaderFormat } from '../../src/sources/loaders/port.ts';
import { addChunk, at, openTestDatabase, testContext, testDeps, type TestDatabase } from './graph-support.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };

/**
 * Links between documents in the passage graph, over sources named by number: recorded from the stored
 * originals as indexing records them, resolved when the graph is read, gone with their source.
 */
describe('document links in the passage graph', () => {
  let t: TestDatabase;
  let paths: DataPaths;
  beforeEach(async () => {
    t = await openTestDatabase('rhizome-document-links-');
    paths = new DataPaths(t.dir);
  });
  afterEach(() => t.close());

  /** A source named `filename` (titled `title`) whose original is `original` and whose one chunk is `content`, recorded. */
  const indexed = async (id: string, filename: string, title: string, original: string, content = original) => {
    const format: LoaderFormat = filename.endsWith('.html') ? 'html' : filename.endsWith('.md') ? 'markdown' : 'text';
    const dir = path.join(paths.databaseDir('test'), 'sources', id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `original-${filename}`), original);
    await t.db('sources').insert({
      id,
      title,
      filename,
      stored_filename: `original-${filename}`,
      enabled: true,
      created_at: at,
      updated_at: at,
    });
    await addChunk(t.db, `${id}-0`, id, content);
    await recordDocumentLinks({ writer: t.db, paths, database: 'test', sourceId: id }, format);
  };

  /** The passage links of the graph, as `linking chunk → target chunk`. */
  const links = async () => {
    const version = await readGraphVersion(t.db);
    const graph = await passageGraph(t.db, await graphAdjacency(t.db, version), version);
    const linkLabel = graph.entities.labels.length + 1;
    const found: string[] = [];
    for (let v = graph.entityCount; v < graph.nodeCount; v++)
      for (let j = graph.offsets[v]; j < graph.offsets[v + 1]; j++)
        if (graph.codes[j] === linkLabel)
          found.push(
            `${graph.chunkIds[v - graph.entityCount]} → ${graph.chunkIds[graph.neighbors[j] - graph.entityCount]}`,
          );
    return found.sort();
  };

  const chunksFound = async (query: string) =>
    (await createGraphSearch(testDeps)(testContext(t.db), query, everywhere, 10)).items
      .filter((item) => item.kind === 'chunk')
      .map((item) => item.id);

  it('walks from a passage to the document it links, which only the link reaches', async () => {
    await indexed(
      'a',
      '0001.md',
      'Harbour Almanac',
      '# Harbour Almanac\n\nThe zanzibarite tide tables were kept by [the keeper](0002.md).',
    );
    await indexed('b', '0002.md', 'Keeper Notes', '# Keeper Notes\n\nA quiet man who rowed out each morning.');
    await indexed(
      'c',
      '0003.txt',
      'Ferry Timetable',
      'Ferry Timetable\n\nThe quillbarrow ferry is run as [[keeper notes]] say.',
    );
    expect(await links()).toEqual(['a-0 → b-0', 'c-0 → b-0']);
    // The walk goes on from the target to what else links it.
    expect(await chunksFound('zanzibarite tide tables')).toEqual(['a-0', 'b-0', 'c-0']);

    await t.db('sources').where({ id: 'a' }).delete();
    expect(await t.db('document_links').where({ source_id: 'a' })).toEqual([]);
    expect(await t.db('source_names').where({ source_id: 'a' })).toEqual([]);
    expect(await links()).toEqual(['c-0 → b-0']);
  });

  it('keeps a link whose target is missing and resolves it when the target arrives', async () => {
    await indexed(
      'a',
      '0001.html',
      'Ferry Timetable',
      '<h1>Ferry Timetable</h1><p>See <a href="0002.html">the pier rules</a>.</p>',
      'Ferry Timetable\n\nSee the pier rules.',
    );
    expect(await links()).toEqual([]);
    expect(await t.db('document_links').select('target_key', 'anchor')).toEqual([
      { target_key: '0002', anchor: 'the pier rules' },
    ]);
    await indexed('b', '0002.html', 'Pier Rules', '<h1>Pier Rules</h1><p>No fishing.</p>');
    expect(await links()).toEqual(['a-0 → b-0']);
    await t.db('sources').where({ id: 'b' }).delete();
    expect(await t.db('document_links').where({ source_id: 'a' })).toHaveLength(1);
  });

  it('knows a first passage by the aliases of its title, unless two sources claim one', async () => {
    await indexed(
      'm',
      '0001.txt',
      'Nicki Minaj',
      'Nicki Minaj\n\nOnika Tanya Maraj-Petty, known professionally as Nicki Minaj, is a rapper.',
    );
    await indexed(
      'p',
      '0002.txt',
      'Pink Friday',
      'Pink Friday\n\nPink Friday is a plumwater album by Onika Tanya Maraj-Petty.',
    );
    expect(await chunksFound('plumwater album')).toEqual(['p-0', 'm-0']);
    // Recording again replaces what the first run recorded.
    await recordDocumentLinks({ writer: t.db, paths, database: 'test', sourceId: 'm' }, 'text');
    expect(await t.db('source_names').where({ source_id: 'm', kind: 'alias' }).select('name')).toEqual([
      { name: 'Onika Tanya Maraj-Petty' },
    ]);

    await indexed(
      'o',
      '0003.txt',
      'Tanya Maraj',
      'Tanya Maraj\n\nOnika Tanya Maraj-Petty, also known as Tanya Maraj, is a painter.',
    );
    // The alias no longer links the album to either person; the name the album's passage mentions still
    // finds both passages holding it, by keyword, neither before the other's source.
    expect((await chunksFound('plumwater album')).sort()).toEqual(['m-0', 'o-0', 'p-0']);
  });
});
