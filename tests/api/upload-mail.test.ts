import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

interface Batch {
  files: SourceResponseBody[];
  errors: { filename: string; error: string }[];
}

const headers = (from: string, subject: string, date: string) => [
  `From: ${from}`,
  'To: Harbour Office <office@harbour.example>',
  'Cc: archive@harbour.example',
  `Subject: ${subject}`,
  `Date: ${date}`,
  `Message-ID: <${subject.replace(/\W/g, '').toLowerCase()}@harbour.example>`,
  'MIME-Version: 1.0',
];

const plain = (from: string, subject: string, date: string, body: string) =>
  [...headers(from, subject, date), 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\n');

const withAttachment = (from: string, subject: string, date: string, body: string, name: string, content: string) =>
  [
    ...headers(from, subject, date),
    'Content-Type: multipart/mixed; boundary="part"',
    '',
    '--part',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '--part',
    `Content-Type: text/markdown; name="${name}"`,
    `Content-Disposition: attachment; filename="${name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(content).toString('base64'),
    '--part--',
    '',
  ].join('\n');

describe('mail uploaded as sources', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  const indexed = async (sources: SourceResponseBody[]) => {
    const done = [];
    for (const source of sources) {
      const finished = await waitForSource(server, cookie, source.id, ['indexed', 'error']);
      expect(finished.status, `${source.filename}: ${finished.error_message}`).toBe('indexed');
      done.push(finished);
    }
    return done;
  };
  const cited = async (query: string) => {
    const answer = await server.call('GET', `/search?q=${encodeURIComponent(query)}&limit=10`, { cookie });
    expect(answer.status, answer.text).toBe(200);
    const ids = [
      ...new Set((answer.body as { data: SearchResultBody[] }).data.flatMap((hit) => hit.chunk?.source_id ?? [])),
    ];
    const names = [];
    for (const id of ids)
      names.push(((await server.call('GET', `/sources/${id}`, { cookie })).body as SourceResponseBody).filename);
    return names;
  };

  it('makes each message of an mbox a source with its headers, and an attachment a source of its own', async () => {
    const mbox = [
      'From ada@harbour.example Mon Mar  7 09:00:00 2022',
      plain(
        'Ada Lovell <ada@harbour.example>',
        'Dredging schedule',
        'Mon, 7 Mar 2022 09:00:00 +0000',
        'The dredger Pellucid starts at the east basin on Monday.',
      ),
      'From ben@harbour.example Tue Mar  8 10:30:00 2022',
      withAttachment(
        'Ben Carrow <ben@harbour.example>',
        'Re: Dredging schedule',
        'Tue, 8 Mar 2022 10:30:00 +0000',
        'Agreed; the soundings are attached.\n>From the east basin the depth is fine.',
        'soundings.md',
        '# Soundings\n\nThe bathymark readings show nine metres at the east basin.\n',
      ),
      'From cy@harbour.example Wed Mar  9 16:45:00 2022',
      plain(
        'Cy Dunmore <cy@harbour.example>',
        'Lamp oil order',
        'Wed, 9 Mar 2022 16:45:00 +0000',
        'Order forty litres of wickfast oil for the lighthouse.',
      ),
    ].join('\n');
    const batch = await uploadSources(server, cookie, '/sources/batch', [{ name: 'harbour.mbox', content: mbox }], {
      extract_entities: 'false',
    });
    expect(batch.status, batch.text).toBe(202);
    const { files, errors } = batch.body as Batch;
    expect(errors).toEqual([]);
    expect(files.map((file) => [file.filename, file.title])).toEqual([
      ['0001.eml', 'Dredging schedule'],
      ['0002.eml', 'Re: Dredging schedule'],
      ['0002.eml/soundings.md', '0002.eml/soundings.md'],
      ['0003.eml', 'Lamp oil order'],
    ]);
    expect(files.every((file) => file.tags.some((tag) => tag.name === 'harbour.mbox'))).toBe(true);
    expect(files[1].user_metadata).toEqual({
      mail: {
        from: [{ name: 'Ben Carrow', address: 'ben@harbour.example' }],
        to: [{ name: 'Harbour Office', address: 'office@harbour.example' }],
        cc: [{ name: '', address: 'archive@harbour.example' }],
        date: '2022-03-08T10:30:00.000Z',
        subject: 'Re: Dredging schedule',
        message_id: '<redredgingschedule@harbour.example>',
        in_reply_to: null,
        attachments: ['soundings.md'],
      },
    });
    const done = await indexed(files);
    // The attachment's own heading titles it once indexed; a subject stays the message's title.
    expect(done.map((source) => source.title)).toEqual([
      'Dredging schedule',
      'Re: Dredging schedule',
      'Soundings',
      'Lamp oil order',
    ]);
    // First: the message holding the word; others follow through the names it mentions.
    expect((await cited('Pellucid'))[0]).toBe('0001.eml');
    expect((await cited('bathymark'))[0]).toBe('0002.eml/soundings.md');
    expect((await cited('wickfast'))[0]).toBe('0003.eml');
    expect((await cited('Carrow'))[0]).toBe('0002.eml');
  }, 60_000);

  it('reads a single .eml whose body is HTML only', async () => {
    const eml = [
      ...headers('Dora Eskdale <dora@harbour.example>', 'Mooring fees', 'Thu, 10 Mar 2022 08:15:00 +0000'),
      'Content-Type: text/html; charset=utf-8',
      '',
      '<html><body><h1>Fees</h1><p>The <b>quaymaster</b> raises the mooring fee to twelve crowns.</p></body></html>',
      '',
    ].join('\r\n');
    const single = await uploadSources(server, cookie, '/sources', [{ name: 'fees.eml', content: eml }], {
      extract_entities: 'false',
    });
    expect(single.status, single.text).toBe(202);
    const source = single.body as SourceResponseBody & { unpacked: { source_ids: string[] } };
    expect([source.filename, source.title, source.unpacked.source_ids]).toEqual([
      'fees.eml',
      'Mooring fees',
      [source.id],
    ]);
    await indexed([source]);
    expect((await cited('quaymaster mooring'))[0]).toBe('fees.eml');
    const chunks = (await server.call('GET', `/sources/${source.id}/chunks`, { cookie })).body as {
      data: { content: string }[];
    };
    expect(chunks.data[0].content).toContain('From: Dora Eskdale <dora@harbour.example>');
    expect(chunks.data.map((chunk) => chunk.content).join(' ')).not.toContain('<b>');
  }, 60_000);
});
