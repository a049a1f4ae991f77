import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

interface BatchAnswer {
  uploaded: number;
  failed: number;
  files: SourceResponseBody[];
  errors: { filename: string; error: string }[];
}

/** A README shaped like Redis's: prose, then a setext level-2 heading, and its only level-1 heading far below. */
const redisLikeReadme = [
  'This README is just a fast quick start document. You can find more detailed documentation at the website.',
  '',
  'What is Redis?',
  '--------------',
  '',
  'Redis is often referred to as a data structures server.',
  '',
  ...Array.from({ length: 230 }, (_, line) => `Line ${line} about building, running and configuring the server.`),
  '',
  'Redis internals',
  '===',
  '',
  'The source code layout is described here.',
].join('\n');

describe('what a source is given when it arrives', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('counts the sources waiting at the confirmation gate on the dashboard, live, as the statistics do', async () => {
    const ids: string[] = [];
    for (const name of ['gate-one.txt', 'gate-two.txt']) {
      const accepted = await uploadSources(server, cookie, '/sources', [
        { name, content: `The Larchmont orchard in ${name} grows forty varieties of heritage apple.` },
      ]);
      expect(accepted.status, accepted.text).toBe(202);
      ids.push((accepted.body as SourceResponseBody).id);
    }
    for (const id of ids) await waitForSource(server, cookie, id, ['awaiting_confirmation']);
    const awaitingOnDashboard = async () =>
      ((await call('GET', '/system/dashboard')).body as { counts: Record<string, number> }).counts
        .awaiting_confirmation;
    const stats = (await call('GET', '/sources/stats')).body as { by_status: Record<string, number> };
    expect(stats.by_status.awaiting_confirmation).toBe(2);
    expect(await awaitingOnDashboard()).toBe(2);
    expect((await call('DELETE', `/sources/${ids[0]}`)).status).toBe(204);
    expect(await awaitingOnDashboard()).toBe(1);
  }, 60_000);

  it('refuses an empty file of a multi-file upload on its own, like an unreadable one, and accepts the rest', async () => {
    const batch = await uploadSources(
      server,
      cookie,
      '/sources/batch',
      [
        { name: 'kept.txt', content: 'The harbour at Kestrel Point freezes only in the coldest winters.' },
        { name: 'blank.txt', content: '' },
        { name: 'noise.bin', content: new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3, 255, 254]) },
        { name: 'also-blank.md', content: '' },
      ],
      { extract_entities: 'false' },
    );
    expect(batch.status, batch.text).toBe(202);
    const answer = batch.body as BatchAnswer;
    expect(answer).toMatchObject({ uploaded: 1, failed: 3 });
    expect(answer.files.map((file) => file.filename)).toEqual(['kept.txt']);
    expect(answer.errors.map((error) => error.filename)).toEqual(['blank.txt', 'noise.bin', 'also-blank.md']);
    for (const { filename, error } of answer.errors) expect(error).toContain(`'${filename}'`);
    expect(answer.errors[0].error).toBe("The file 'blank.txt' is empty");
    expect(answer.errors[2].error).toBe("The file 'also-blank.md' is empty");
    await waitForSource(server, cookie, answer.files[0].id, ['indexed']);
    const incoming = path.join(server.dataDir, 'databases', 'default', 'sources', '.incoming');
    await until(() => !fs.existsSync(incoming) || fs.readdirSync(incoming).length === 0, {
      what: 'the refused files to be removed',
    });
  }, 60_000);

  it('keeps refusing a single-file upload of an empty file with a 422 naming it', async () => {
    const single = await uploadSources(server, cookie, '/sources', [{ name: 'void.txt', content: '' }]);
    expect(single.status, single.text).toBe(422);
    expect((single.body as { message: string }).message).toBe("The file 'void.txt' is empty");
  });

  it("titles a Markdown source with its first heading, ATX or setext, whatever the heading's level", async () => {
    const documents = [
      { name: 'redis-README.md', content: redisLikeReadme, title: 'What is Redis?' },
      {
        name: 'atx-first.md',
        content: '## Getting started\n\nInstall it.\n\n# Reference\n\nEvery option.',
        title: 'Getting started',
      },
      { name: 'setext-top.md', content: 'Orchard notes\n=============\n\nForty varieties.', title: 'Orchard notes' },
      { name: 'atx-top.md', content: '\n\n# Kestrel Point\n\n## History\n\nBuilt in 1871.', title: 'Kestrel Point' },
      { name: 'front-matter.md', content: '---\ntitle: Declared\n---\n## Section\n\nText.', title: 'Declared' },
      { name: 'no-heading.md', content: 'Only a paragraph of text, with no heading at all.', title: 'no-heading.md' },
    ];
    const batch = await uploadSources(
      server,
      cookie,
      '/sources/batch',
      documents.map(({ name, content }) => ({ name, content })),
      { extract_entities: 'false' },
    );
    expect(batch.status, batch.text).toBe(202);
    const created = (batch.body as BatchAnswer).files;
    for (const document of documents) {
      const id = created.find((file) => file.filename === document.name)!.id;
      const source = await waitForSource(server, cookie, id, ['indexed', 'error']);
      expect(source.title, document.name).toBe(document.title);
    }
  }, 60_000);
});
