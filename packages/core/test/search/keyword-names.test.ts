import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetTermCounts } from '../../src/search/common-terms.ts';
import { keywordSearch } from '../../src/search/keyword.ts';
import type { SearchContext, SearchScope } from '../../src/search/types.ts';
import type { Db } from '../../src/storage/connection.ts';
import { openTestDatabase, testContext, type TestDatabase } from './graph-support.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };
const at = '2025-01-01T00:00:00.000Z';

describe('keyword search and the names a query or passage types', () => {
  let test: TestDatabase;
  let db: Db;
  let context: SearchContext;
  const ids = async (query: string, scope: SearchScope = everywhere, limit = 10) => {
    forgetTermCounts(db);
    return (await keywordSearch(context, query, scope, limit)).items.map((item) => item.id);
  };

  beforeAll(async () => {
    test = await openTestDatabase('keyword-names-');
    db = test.db;
    context = testContext(db);
    const source = (id: string, title: string, enabled = true) => ({
      id,
      filename: `${id}.txt`,
      title,
      enabled,
      created_at: at,
      updated_at: at,
    });
    await db('sources').insert([
      source('vice', 'Inherent Vice (film)'),
      source('greenwood', 'Jonny Greenwood'),
      source('pynchon', 'Thomas Pynchon', false),
      source('notes', 'Notes'),
      ...Array.from({ length: 6 }, (_, i) => source(`zyx_${i}`, `Zyx notes ${i}`)),
      source('cw', 'Common Word'),
      ...Array.from({ length: 6 }, (_, i) => source(`filler_${i}`, `Filler ${i}`)),
    ]);
    const chunk = (id: string, sourceId: string, content: string) => ({
      id,
      source_id: sourceId,
      chunk_index: 0,
      content,
      created_at: at,
    });
    await db('document_chunks').insert([
      chunk(
        'vice_0',
        'vice',
        'Inherent Vice is a 2014 film adapted from the novel by Thomas Pynchon, with music by Jonny Greenwood.',
      ),
      chunk('greenwood_0', 'greenwood', 'An English musician from Oxford, guitarist of a rock band.'),
      chunk('pynchon_0', 'pynchon', 'An American novelist.'),
      chunk('notes_0', 'notes', 'Further notes on the composer of a vice squad drama.'),
      // "Zyx" is rare and repeated: one ranking of "zyx or common word" fills its first places with it.
      ...Array.from({ length: 6 }, (_, i) => chunk(`zyx_${i}_0`, `zyx_${i}`, `zyx zyx zyx, older than most.`)),
      chunk('cw_0', 'cw', 'A common word, older than it looks: common in speech, a word in every mouth.'),
      ...Array.from({ length: 6 }, (_, i) =>
        chunk(`filler_${i}_0`, `filler_${i}`, 'a common saying and a word of advice'),
      ),
    ]);
  });
  afterAll(async () => {
    await test.close();
  });

  it('ranks each of two names a query sets side by side, whichever has the rarer words', async () => {
    const found = await ids('Which is older, Zyx or Common Word?', everywhere, 3);
    expect(found).toContain('cw_0');
    expect(found.filter((id) => id.startsWith('zyx_'))).toHaveLength(2);
    // Without the choice between two names the rare word keeps every place.
    const single = await ids('older zyx common word', everywhere, 3);
    expect(single).not.toContain('cw_0');
  });
});
