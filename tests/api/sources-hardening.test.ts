import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { epubWith } from '../../packages/core/test/sources/broken-files.ts';
import { png } from '../../packages/core/test/sources/fixtures.ts';
import { createChat, sendMessage, waitIdle } from '../support/chats.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

interface Task {
  task_id: string;
  operation: string;
  status: string;
  attempts: number;
  data: Record<string, unknown>;
}

const noText = /^No text could be read from this file/;

const biography = [
  'Marie Curie was born in Warsaw in 1867.',
  'She moved to Paris to study physics at the University of Paris.',
];
const laterPage = [
  'Henri Becquerel discovered radioactivity in 1896.',
  'Pierre Curie shared the Nobel Prize with Henri Becquerel.',
];

/** A two-page PDF with a Title in its metadata, short enough to become one chunk that runs over the page break. */
async function twoPagePdf(title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of [biography, laterPage]) {
    const page = doc.addPage([500, 300]);
    lines.forEach((line, index) => page.drawText(line, { x: 20, y: 250 - index * 20, size: 10, font }));
  }
  doc.setTitle(title);
  return Buffer.from(await doc.save());
}

/** A one-page PDF whose content stream is FlateDecode of `inflatedBytes` zeros: about a thousandth of that on disk. */
async function pdfWithInflatingStream(inflatedBytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(inflatedBytes);
  const stream = await promisify(zlib.deflate)(zeros, { level: 9 });
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  const length = () => parts.reduce((sum, part) => sum + part.length, 0);
  objects.forEach((object, index) => {
    offsets.push(length());
    parts.push(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`));
  });
  offsets.push(length());
  parts.push(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream);
  parts.push(Buffer.from('\nendstream\nendobj\n'));
  const xref = length();
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 5\n0000000000 65535 f \n${entries}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

/** The pipeline's dead ends: sources that never settle, parse failures that are retried, the gate, and pages of citations. */
describe('sources pipeline hardening over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const upload = async (name: string, content: string | Uint8Array, fields: Record<string, string> = {}) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], fields);
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };
  const source = async (id: string) => (await call('GET', `/sources/${id}`)).body as SourceResponseBody;

  /** The source's indexing task once it ended (completed, failed or cancelled), or whatever it is at the deadline. */
  const indexingTask = (id: string, timeoutMs = 20_000): Promise<Task> =>
    until(
      async () => {
        const tasks = ((await call('GET', '/queue/tasks?page_size=1000')).body as { data: Task[] }).data;
        const task = tasks.find(
          (candidate) => candidate.operation === 'sources.index' && candidate.data.source_id === id,
        );
        return task && ['completed', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
      },
      { timeoutMs, intervalMs: 50, what: `the indexing task of ${id} to end` },
    );
  /** The source after its indexing task (and the extraction start it runs at the end) finished. */
  const afterIndexing = async (id: string) => {
    expect((await indexingTask(id))?.status).toBe('completed');
    return source(id);
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  describe('a source with nothing to extract', () => {
    it('ends an image with no vision model, uploaded for extraction, indexed with the reasons in loader_warnings instead of extracting forever', async () => {
      const id = await upload('diagram.png', png(5, 4), { auto_confirm: 'true' });
      const indexed = await afterIndexing(id);
      expect(indexed.status, indexed.step_description ?? '').toBe('indexed');
      expect(indexed.chunk_count).toBe(0);
      expect(indexed.loader_warnings).toEqual([
        expect.stringMatching(/^No vision model is configured/),
        expect.stringMatching(/^Not extracted: nothing to extract, no text could be read from it/),
      ]);
      expect((await call('GET', `/sources/${id}/extraction`)).body).toMatchObject({ has_extraction_job: false });
    });

    it('does not park a file without text at the confirmation gate: there is no domain to confirm', async () => {
      const id = await upload('blank.txt', '   \n\n\t  \n');
      const indexed = await afterIndexing(id);
      expect(indexed).toMatchObject({ status: 'indexed', chunk_count: 0 });
      expect(indexed.loader_warnings).toEqual(expect.arrayContaining([expect.stringMatching(noText)]));
    });

    it('refuses POST extraction of a source without text with a 400 in the envelope, changing nothing', async () => {
      const id = await upload('blank-again.txt', ' \n \n', { auto_confirm: 'true', extract_entities: 'false' });
      const before = await afterIndexing(id);
      const refused = await call('POST', `/sources/${id}/extraction`, {});
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: expect.stringMatching(/has nothing to extract: no text could be read/),
        details: { reason: 'nothing_to_extract' },
      });
      expect(await source(id)).toMatchObject({
        status: 'indexed',
        updated_at: before.updated_at,
        loader_warnings: before.loader_warnings,
      });
    });
  });

  describe('parse failures', () => {
    it('fails a malformed EPUB at once, like the equivalent DOCX: error after one attempt, never retried', async () => {
      const docx = new JSZip();
      docx.file('[Content_Types].xml', '<Types/>');
      docx.file('word/document.xml', '');
      const files = {
        'broken.epub': await epubWith({ 'chapter1.xhtml': '' }),
        'broken.docx': await docx.generateAsync({ type: 'nodebuffer' }),
      };
      for (const [name, content] of Object.entries(files)) {
        const id = await upload(name, content, { auto_confirm: 'true' });
        const task = await indexingTask(id, 8_000);
        expect(task, name).toMatchObject({ status: 'failed', attempts: 1 });
        expect(await source(id), name).toMatchObject({
          status: 'error',
          error_stage: 'indexing',
          error_message: expect.stringMatching(/could not be read|no readable chapter/),
        });
      }
    });
  });

  describe('the confirmation gate and extract_entities=false', () => {
    it('ends a source uploaded without extraction indexed; a later POST extraction applies the gate, and confirming extracts it', async () => {
      const id = await upload('curie-notes.txt', [...biography, ...laterPage].join(' '), { extract_entities: 'false' });
      const indexed = await afterIndexing(id);
      expect(indexed).toMatchObject({ status: 'indexed', extract_entities: false });

      const parked = await call('POST', `/sources/${id}/extraction`, { analysis_depth: 'quick' });
      expect(parked.status, parked.text).toBe(202);
      expect(parked.body).toMatchObject({ source_id: id, job_id: null, status: 'awaiting_confirmation' });
      expect(await source(id)).toMatchObject({
        status: 'awaiting_confirmation',
        extract_entities: true,
        extraction_depth: 'quick',
      });

      expect((await call('POST', `/sources/${id}/confirmation`, { domain: 'biographical' })).status).toBe(200);
      const committed = await waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
      expect(committed.status, committed.error_message ?? '').toBe('committed');
      expect(committed.extraction_domain).toBe('biographical');
    });

    it('extracts at once when the POST names the domain itself', async () => {
      const id = await upload('becquerel-notes.txt', laterPage.join(' '), { extract_entities: 'false' });
      await afterIndexing(id);
      const started = await call('POST', `/sources/${id}/extraction`, { domain: 'biographical' });
      expect(started.status, started.text).toBe(202);
      expect(started.body).toMatchObject({ status: 'queued', job_id: expect.stringMatching(/^job_/) });
      expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
    });
  });

  describe('the log', () => {
    it('records each milestone of a source at info, one line each with the source id', async () => {
      const id = await upload('milestones.txt', `${biography.join(' ')} The log test.`, {
        auto_confirm: 'true',
        domain: 'biographical',
      });
      expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
      const lines = ((await call('GET', '/logs/cortex?lines=10000')).body as { lines: string[] }).lines
        .map((line) => JSON.parse(line) as { level: string; message: string })
        .filter((entry) => entry.message.startsWith(`source ${id}: `));
      const milestones = [
        /uploaded milestones\.txt/,
        /indexed, 1 chunks \(indexed\)/,
        /extraction started, 1 groups/,
        /extracted \d+ entities/,
        /committed, \d+ new/,
      ];
      for (const milestone of milestones)
        expect(
          lines.filter((entry) => milestone.test(entry.message)).map((entry) => entry.level),
          String(milestone),
        ).toEqual(['info']);
    });
  });

  describe('a PDF bomb', () => {
    it('ends a small PDF whose stream inflates to 400 MiB in error, with the reason, and memory stays bounded', async () => {
      const bomb = await pdfWithInflatingStream(400 * 1024 * 1024);
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      try {
        const id = await upload('report.pdf', bomb, { auto_confirm: 'true' });
        const ended = await waitForSource(server, cookie, id, ['error', 'indexed', 'committed'], 60_000);
        expect(ended).toMatchObject({
          status: 'error',
          error_message: expect.stringMatching(/inflates? to more than \d+ MiB/),
        });
      } finally {
        clearInterval(sampler);
      }
      const grownMiB = (peak - baseline) / 1024 / 1024;
      console.log(`PDF bomb: peak RSS grew by ${grownMiB.toFixed(0)} MiB`);
      expect(grownMiB).toBeLessThan(250);
    }, 120_000);
  });

  describe('URL import refusals', () => {
    it('names the setting that allows private addresses when it refuses a loopback URL', async () => {
      for (const url of [`${server.url}/`, 'http://localhost:9/', 'http://10.1.2.3/']) {
        const refused = await call('POST', '/sources/url', { url });
        expect(refused.status, url).toBe(400);
        expect((refused.body as { message: string }).message, url).toMatch(
          /not a public address.*web\.allow_private_addresses/,
        );
      }
    });
  });

  describe('PDF pages and titles', () => {
    it('cites the page a supporting sentence is on, not the first page of its chunk, and titles the source from the PDF metadata', async () => {
      const id = await upload('scan-0042.pdf', await twoPagePdf('Notes on Radioactivity'), {
        auto_confirm: 'true',
        domain: 'biographical',
      });
      const committed = await waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
      expect(committed.status, committed.error_message ?? '').toBe('committed');
      expect(committed).toMatchObject({ title: 'Notes on Radioactivity', filename: 'scan-0042.pdf', chunk_count: 1 });

      const pageOfCitations = async (label: string) => {
        const { db } = await server.platform.databases.current();
        const node = (await db('graph_nodes').whereRaw('lower(label) = ?', [label.toLowerCase()]).first('id')) as
          { id: string } | undefined;
        expect(node, label).toBeDefined();
        const citations = (
          (await call('GET', `/nodes/${node!.id}/citations`)).body as {
            data: {
              source: { id: string };
              chunk: { page_number: number };
              citation_metadata: { page_number: number };
            }[];
          }
        ).data;
        return citations
          .filter((citation) => citation.source.id === id)
          .map((citation) => ({ chunk: citation.chunk.page_number, sentence: citation.citation_metadata.page_number }));
      };
      expect(await pageOfCitations('Warsaw')).toEqual([{ chunk: 1, sentence: 1 }]);
      expect(await pageOfCitations('Henri Becquerel')).toEqual([{ chunk: 1, sentence: 2 }]);

      // Scoped to the PDF: other tests of this server upload the same sentences as text.
      const chat = await createChat(server, cookie, { title: 'Pages', source_ids: [id] });
      await sendMessage(server, cookie, chat.id, 'When did Henri Becquerel discover radioactivity?');
      const answer = (await waitIdle(server, cookie, chat.id)).messages.at(-1)!;
      const cited = Object.values(
        (
          answer.extra_metadata as {
            chunk_citations: Record<string, { sentence_text: string; page_number: number | null }>;
          }
        ).chunk_citations,
      );
      expect(cited.map((citation) => citation.page_number)).toEqual(
        cited.map((citation) => (citation.sentence_text.includes('Warsaw') ? 1 : 2)),
      );
      expect(cited.find((citation) => citation.sentence_text.includes('discovered radioactivity'))?.page_number).toBe(
        2,
      );
    });
  });
});

/** Sources that an earlier version left `extracting` with nothing queued are finished when the server starts again. */
describe('the recovery scan at start-up', () => {
  it('finishes sources left extracting by a job with no work left, by tasks cancelled in the queue, and those whose job already ended', async () => {
    const dataDir = tempDataDir();
    let server = await startTestServer({ dataDir });
    const cookie = await setUpAccount(server);
    const ids: string[] = [];
    for (const name of ['zero-groups.txt', 'cancelled-job.txt']) {
      const accepted = await uploadSources(
        server,
        cookie,
        '/sources',
        [{ name, content: `${biography.join(' ')} (${name})` }],
        { auto_confirm: 'true', extract_entities: 'false' },
      );
      ids.push((accepted.body as SourceResponseBody).id);
    }
    for (const id of ids) await waitForSource(server, cookie, id, ['indexed']);

    // An extraction whose group tasks were cancelled in the queue before they ran: its groups stay queued with no task behind them.
    const orphaned = (
      (
        await uploadSources(server, cookie, '/sources', [{ name: 'orphaned.txt', content: laterPage.join(' ') }], {
          auto_confirm: 'true',
          domain: 'biographical',
          extract_entities: 'false',
        })
      ).body as SourceResponseBody
    ).id;
    await waitForSource(server, cookie, orphaned, ['indexed']);
    const asOperator = (method: string, apiPath: string, body?: unknown) =>
      server.call(method, apiPath, { cookie, body });
    expect((await asOperator('POST', `/sources/${orphaned}/pause`, {})).status).toBe(200);
    expect((await asOperator('POST', `/sources/${orphaned}/extraction`, {})).status).toBe(202);
    expect((await asOperator('DELETE', '/queue/tasks?queue=llm')).status).toBe(200);
    expect((await asOperator('POST', `/sources/${orphaned}/resume`)).status).toBe(200);

    // What earlier versions left behind: a job of zero groups never finalised, and a cancelled job whose source still says extracting.
    const { db } = await server.platform.databases.current();
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    await db('sources').where({ id: orphaned }).update({ last_activity_at: longAgo });
    const jobs = [
      { id: 'job_zero_groups', status: 'queued' as const },
      { id: 'job_cancelled', status: 'cancelled' as const },
    ];
    for (const [index, job] of jobs.entries()) {
      await db('extraction_jobs').insert({
        id: job.id,
        source_id: ids[index],
        status: job.status,
        depth: 'full',
        domain: 'biographical',
        options: '{}',
        total_groups: 0,
        created_at: longAgo,
      });
      await db('sources').where({ id: ids[index] }).update({
        status: 'extracting',
        extraction_job_id: job.id,
        last_activity_at: longAgo,
        step_description: 'Extracting 0 groups of 0 chunks',
      });
    }
    await server.stop();

    server = await startTestServer({ dataDir });
    try {
      const [zero, cancelled] = await Promise.all(
        ids.map((id) => waitForSource(server, cookie, id, ['indexed', 'error', 'committed'], 10_000)),
      );
      expect(zero).toMatchObject({ status: 'indexed' });
      expect(zero.loader_warnings).toEqual([expect.stringMatching(/^Not extracted: nothing to extract/)]);
      expect(cancelled).toMatchObject({ status: 'indexed', step_description: expect.stringContaining('cancelled') });
      const ended = await waitForSource(server, cookie, orphaned, ['indexed', 'error', 'committed'], 10_000);
      expect(ended).toMatchObject({
        status: 'error',
        error_stage: 'extraction',
        error_message: expect.stringContaining('its task was cancelled without extracting it'),
      });
      const { db: reopened } = await server.platform.databases.current();
      expect(await reopened('extraction_jobs').where({ id: 'job_zero_groups' }).first('status')).toEqual({
        status: 'cancelled',
      });
    } finally {
      await server.stop();
    }
  });
});
