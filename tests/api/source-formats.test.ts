import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import {
  writeBadFixtures,
  writeFixtures,
  type BadFixture,
  type BadFixtureName,
  type Fixture,
  type FixtureName,
} from '../../packages/core/test/sources/fixtures.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

/** Every supported format, uploaded over HTTP, indexed in the worker and findable by keyword. */
describe('every format through upload and indexing', () => {
  let server: TestServer;
  let cookie: string;
  let fixtures: Record<FixtureName, Fixture>;
  let bad: Record<BadFixtureName, BadFixture>;

  const upload = async (file: { path: string; filename: string }) => {
    const result = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: file.filename, content: fs.readFileSync(file.path) }],
      { auto_confirm: 'true', extract_entities: 'false' },
    );
    return { status: result.status, body: result.body as SourceResponseBody };
  };
  const settled = (id: string) => waitForSource(server, cookie, id, ['indexed', 'error']);

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-formats-'));
    fixtures = await writeFixtures(dir);
    bad = await writeBadFixtures(dir);
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('indexes each format and finds its distinctive word by keyword', async () => {
    const uploaded = await Promise.all(
      Object.entries(fixtures).map(async ([name, fixture]) => {
        const result = await upload(fixture);
        expect(result.status, `${name}: ${JSON.stringify(result.body)}`).toBe(202);
        expect(result.body.content_type, name).toBe(fixture.mediaType);
        return { name, fixture, id: result.body.id };
      }),
    );
    const { db } = await server.platform.databases.current();
    for (const { name, fixture, id } of uploaded) {
      const source = await settled(id);
      expect(source.status, `${name}: ${source.error_message}`).toBe('indexed');
      if (!fixture.expectText) {
        expect(source.chunk_count, name).toBe(0);
        expect(source.detection_proposal, name).toMatchObject({ no_text: true });
        continue;
      }
      const hits = (await db.raw(
        'SELECT c.source_id FROM fts_chunks JOIN document_chunks c ON c.rowid = fts_chunks.rowid WHERE fts_chunks MATCH ?',
        [`"${fixture.expectText}"`],
      )) as { source_id: string }[];
      expect(
        hits.map((hit) => hit.source_id),
        name,
      ).toContain(id);
    }
  });

  it('fails corrupt, encrypted and unsafe files with a clear error, not a stuck source', async () => {
    for (const name of ['pdfEncrypted', 'pdfCorrupt', 'docxZipSlip', 'binaryJunk'] as const) {
      const file = bad[name];
      const result = await upload(file);
      if (result.status !== 202) {
        expect(result.status, name).toBe(422);
        continue;
      }
      const source = await settled(result.body.id);
      expect(source, name).toMatchObject({
        status: 'error',
        error_stage: 'indexing',
        error_message: expect.any(String),
      });
    }
  });

  it('reads a zip that is no office document as an archive: each member a source', async () => {
    const result = await upload(bad.plainZip);
    expect(result.status).toBe(202);
    const source = await settled(result.body.id);
    expect(source).toMatchObject({ filename: 'readme.txt', status: 'indexed' });
  });
});
