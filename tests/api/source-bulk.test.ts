import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';

interface BulkAnswer {
  results: { index: number; operation: string; success: boolean; id: string; error?: string }[];
  succeeded: number;
  failed: number;
}

/** POST /sources/bulk: one action on many sources, each reported on its own, bad requests refused whole. */
describe('POST /sources/bulk', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const bulk = async (body: unknown) => {
    const answer = await call('POST', '/sources/bulk', body);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as BulkAnswer;
  };
  const source = async (id: string) => (await call('GET', `/sources/${id}`)).body as SourceResponseBody;

  const ids: string[] = [];
  // Bulk actions take a source in any status: the test does not wait for indexing.
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    for (const name of ['one', 'two', 'three', 'four'].map((word) => `bulk-${word}.txt`)) {
      const accepted = await uploadSources(server, cookie, '/sources', [
        { name, content: `The tide tables in ${name} list the high waters of the northern harbour.` },
      ]);
      expect(accepted.status, accepted.text).toBe(202);
      ids.push((accepted.body as SourceResponseBody).id);
    }
  });
  afterAll(() => server.stop());

  it('disables and enables sources, and a missing one fails alone in its place', async () => {
    const answer = await bulk({ action: 'disable', source_ids: [ids[0], 'no-such-source', ids[1]] });
    expect(answer.succeeded).toBe(2);
    expect(answer.failed).toBe(1);
    expect(answer.results.map((result) => [result.index, result.id, result.success])).toEqual([
      [0, ids[0], true],
      [1, 'no-such-source', false],
      [2, ids[1], true],
    ]);
    expect(answer.results[1].error).toMatch(/no-such-source/);
    expect((await source(ids[0])).enabled).toBe(false);
    expect((await source(ids[2])).enabled).toBe(true);
    await bulk({ action: 'enable', source_ids: [ids[0], ids[1]] });
    expect((await source(ids[0])).enabled).toBe(true);
  });

  it('tags and untags sources; untagging one without the tag succeeds', async () => {
    const tag = (await call('POST', '/sources/tags', { name: 'Harbour' })).body as { id: string };
    const tagged = await bulk({ action: 'tag', tag_id: tag.id, source_ids: [ids[0], ids[1]] });
    expect(tagged.succeeded).toBe(2);
    expect((await source(ids[1])).tags.map((known) => known.name)).toEqual(['Harbour']);
    const untagged = await bulk({ action: 'untag', tag_id: tag.id, source_ids: [ids[1], ids[2]] });
    expect(untagged).toMatchObject({ succeeded: 2, failed: 0 });
    expect((await source(ids[1])).tags).toEqual([]);
    expect((await source(ids[0])).tags.map((known) => known.name)).toEqual(['Harbour']);

    const unknownTag = await call('POST', '/sources/bulk', {
      action: 'tag',
      tag_id: 'no-such-tag',
      source_ids: [ids[0]],
    });
    expect(unknownTag.status).toBe(404);
    const noTag = await call('POST', '/sources/bulk', { action: 'untag', source_ids: [ids[0]] });
    expect(noTag.status).toBe(422);
    expect(validationIssuesOf(noTag).map((issue) => issue.loc)).toEqual([['body', 'tag_id']]);
  });

  it('deletes the sources given and leaves the others', async () => {
    const answer = await bulk({ action: 'delete', source_ids: [ids[2], ids[3]] });
    expect(answer).toMatchObject({ succeeded: 2, failed: 0 });
    expect((await call('GET', `/sources/${ids[2]}`)).status).toBe(404);
    const left = (await call('GET', '/sources')).body as { data: SourceResponseBody[] };
    expect(left.data.map((row) => row.id).sort()).toEqual([ids[0], ids[1]].sort());
    // Deleting again fails per source, not the request.
    expect(await bulk({ action: 'delete', source_ids: [ids[2]] })).toMatchObject({ succeeded: 0, failed: 1 });
  });

  it('refuses an unknown action, an empty list and more than 500 sources with 422', async () => {
    for (const body of [
      { action: 'shred', source_ids: [ids[0]] },
      { action: 'delete', source_ids: [] },
      { action: 'delete', source_ids: Array.from({ length: 501 }, (_, index) => `source-${index}`) },
      { action: 'delete' },
    ]) {
      const refused = await call('POST', '/sources/bulk', body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(refused.body).toMatchObject({ error: expect.anything() });
    }
  });
});
