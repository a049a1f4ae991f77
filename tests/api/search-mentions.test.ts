import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

interface SearchBody {
  data: { result_type: 'node' | 'chunk'; chunk: { source_id: string } | null }[];
}

const passages = {
  film: 'Polish Easter is a 2011 German drama film directed by Jakob Ziemnicki, shot in a small town.',
  // Shares no word with the question: only the film's passage leads to it.
  director: 'Jakob Ziemnicki studied screenwriting in Wroclaw and now lives in Hamburg with two cats.',
  decoys: [
    'Easter in Poland is celebrated with painted eggs, and many families attend a drama at church.',
    'A German mother and her son direct a film festival in a small town every Easter.',
    'The director of the Polish film school was born in Lodz and directed many short films.',
  ],
};

/**
 * A question whose second hop shares no rare word with it: keyword search reaches the director's passage
 * through the name the film's passage mentions.
 */
describe('keyword search follows the names its best passages mention', () => {
  let server: TestServer;
  let cookie: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const named: [string, string][] = [
      ['film', passages.film],
      ['director', passages.director],
      ...passages.decoys.map((text, index): [string, string] => [`decoy-${index}`, text]),
    ];
    // File names that say nothing: a source's title is searched too.
    for (const [index, [name, content]] of named.entries()) {
      const accepted = await uploadSources(server, cookie, '/sources', [{ name: `passage-${index}.txt`, content }], {
        extract_entities: 'false',
      });
      expect(accepted.status, accepted.text).toBe(202);
      ids[name] = (accepted.body as SourceResponseBody).id;
    }
    for (const id of Object.values(ids)) await waitForSource(server, cookie, id, ['indexed']);
  }, 90_000);
  afterAll(() => server.stop());

  it('ranks the passage about the director the film’s passage names among the first results, after it', async () => {
    const query = new URLSearchParams({
      q: 'Who is the mother of the director of film Polish Easter?',
      search_type: 'keyword',
      limit: '4',
    });
    const response = await server.call('GET', `/search?${query}`, { cookie });
    expect(response.status, response.text).toBe(200);
    const sources = (response.body as SearchBody).data.flatMap((hit) => (hit.chunk ? [hit.chunk.source_id] : []));
    const named = sources.map((id) => Object.keys(ids).find((name) => ids[name] === id));
    expect(named, named.join(', ')).toContain('director');
    expect(named.indexOf('film'), named.join(', ')).toBeLessThan(named.indexOf('director'));
  });
});
