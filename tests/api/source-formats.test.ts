import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { writeBadFixtures, writeFixtures, type BadFixture, type BadFixtureName, type Fixture, type FixtureName } from '../../packages/core/test/sources/fixtures.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/** Every supported format, uploaded over HTTP, indexed in the worker and findable by keyword. */
describe('every format through upload and indexing', () => {
  let server: TestServer;
  let cookie: string;
  let fixtures: Record<FixtureName, Fixture>;
  let bad: Record<BadFixtureName, BadFixture>;

  const upload = async (file: { path: string; filename: string }) => {
    const form = new FormData();
    form.append('auto_confirm', 'true');
    form.append('file', new Blob([new Uint8Array(fs.readFileSync(file.path))]), file.filename);
    const response = await fetch(`${server.base}/sources`, { method: 'POST', headers: { cookie }, body: form });
    return { status: response.status, body: (await response.json()) as SourceResponseBody };
  };
  const settled = async (id: string): Promise<SourceResponseBody> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const source = (await server.call('GET', `/sources/${id}`, { cookie })).body as SourceResponseBody;
      if (source.status === 'indexed' || source.status === 'error') return source;
      if (Date.now() > deadline) throw new Error(`${id} still ${source.status}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  };

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-formats-'));
    fixtures = await writeFixtures(dir);
    bad = await writeBadFixtures(dir);
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('indexes each format and finds its distinctive word by keyword', async () => {
    const uploaded = await Promise.all(Object.entries(fixtures).map(async ([name, fixture]) => {
      const result = await upload(fixture);
      expect(result.status, `${name}: ${JSON.stringify(result.body)}`).toBe(202);
      expect(result.body.content_type, name).toBe(fixture.mediaType);
      return { name, fixture, id: result.body.id };
    }));
    const { db } = await server.platform.databases.current();
    for (const { name, fixture, id } of uploaded) {
      const source = await settled(id);
      expect(source.status, `${name}: ${source.error_message}`).toBe('indexed');
      if (!fixture.expectText) {
        expect(source.chunk_count, name).toBe(0);
        expect(source.detection_proposal, name).toMatchObject({ no_text: true });
        continue;
      }
      const hits = (await db.raw('SELECT c.source_id FROM fts_chunks JOIN document_chunks c ON c.rowid = fts_chunks.rowid WHERE fts_chunks MATCH ?', [`"${fixture.expectText}"`])) as { source_id: string }[];
      expect(hits.map((hit) => hit.source_id), name).toContain(id);
    }
  });

  it('fails corrupt, encrypted and unsafe files with a clear error, not a stuck source', async () => {
    for (const name of ['pdfEncrypted', 'pdfCorrupt', 'docxZipSlip', 'binaryJunk', 'plainZip'] as const) {
      const file = bad[name];
      const result = await upload(file);
      if (result.status !== 202) {
        expect(result.status, name).toBe(422);
        continue;
      }
      const source = await settled(result.body.id);
      expect(source, name).toMatchObject({ status: 'error', error_stage: 'indexing', error_message: expect.any(String) });
    }
  });
});
