import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const people = [
  'Ada Lovelace',
  'Charles Babbage',
  'Mary Somerville',
  'Michael Faraday',
  'Caroline Herschel',
  'John Herschel',
  'Augustus De Morgan',
  'George Boole',
  'Florence Nightingale',
  'Charles Wheatstone',
  'David Brewster',
  'William Whewell',
];

/** More documents in flight at once than an EventTarget's default listener limit (10). */
const documents = people.map((person, index) => ({
  name: `letter-${index}.txt`,
  content: Array.from(
    { length: 40 },
    (_, line) =>
      `${person} wrote letter ${line} to ${people[(index + line + 1) % people.length]} from London in 18${40 + (line % 50)}.`,
  ).join(' '),
}));

describe('listeners during a concurrent ingest', () => {
  let server: TestServer;
  let cookie: string;
  const warnings: Error[] = [];
  const collect = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    process.on('warning', collect);
  });
  afterAll(async () => {
    process.off('warning', collect);
    await server.stop();
  });

  it('indexes and extracts a dozen documents at once without a MaxListenersExceededWarning', async () => {
    const accepted = await uploadSources(server, cookie, '/sources/batch', documents, {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    expect(accepted.status, accepted.text).toBeLessThan(300);
    const ids = (accepted.body as { files: SourceResponseBody[] }).files.map((source) => source.id);
    expect(ids).toHaveLength(documents.length);
    for (const id of ids)
      expect((await waitForSource(server, cookie, id, ['committed', 'error'], 120_000)).status).toBe('committed');
    expect(
      warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map((warning) => warning.message),
    ).toEqual([]);
  }, 180_000);
});
