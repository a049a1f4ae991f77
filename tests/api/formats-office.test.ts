import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import {
  DOC_TEXT,
  ODP_BODY,
  ODS_BODY,
  ODT_BODY,
  RTF,
  legacyOffice,
  odfPackage,
  wordDocument,
  xlsm,
} from '../../packages/core/test/sources/loaders/office-fixtures.ts';
import { zipArchive } from '../../packages/core/test/sources/unpack/archives.ts';
import { validationIssuesOf } from '../support/api-assertions.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

interface Batch {
  files: SourceResponseBody[];
  errors: { filename: string; error: string }[];
}

/**
 * OpenDocument, RTF, macro-enabled and Word 97–2003 files uploaded over HTTP, read in the worker, found by
 * keyword search and cited to their section, sheet or slide; legacy Excel and PowerPoint refused with a 422
 * that says what to save them as, and nothing stored.
 */
describe('office formats through upload and search', () => {
  let server: TestServer;
  let cookie: string;
  const fields = { auto_confirm: 'true', extract_entities: 'false' };

  const indexedUpload = async (name: string, content: Buffer | string) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], fields);
    expect(accepted.status, accepted.text).toBe(202);
    const source = await waitForSource(server, cookie, (accepted.body as SourceResponseBody).id, ['indexed', 'error']);
    expect(source.status, `${name}: ${source.error_message}`).toBe('indexed');
    return source;
  };
  /** The chunks a keyword search finds for `query` in one source. */
  const hitsIn = async (sourceId: string, query: string) => {
    const answer = await server.call('GET', `/search?q=${encodeURIComponent(query)}&search_type=keyword&limit=20`, {
      cookie,
    });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { data: SearchResultBody[] }).data.flatMap((hit) =>
      hit.chunk?.source_id === sourceId ? [hit.chunk] : [],
    );
  };
  const citation = async (sourceId: string, query: string) => {
    const [hit] = await hitsIn(sourceId, query);
    expect(hit, `no hit for ${query}`).toBeDefined();
    return { page: hit.page_number, section: hit.section };
  };
  const sourceCount = async () =>
    ((await server.call('GET', '/sources?page_size=1', { cookie })).body as { pagination: { total: number } })
      .pagination.total;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    // Passages about a paragraph long, so the short sections, sheets and slides of these files are chunked
    // apart, as those of real documents are at the default sizes.
    const chunking = { small_chunk_size: 50, max_chunk_size: 60, min_chunk_size: 1, small_chunk_overlap: 0 };
    expect((await server.call('PATCH', '/settings', { cookie, body: { chunking } })).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('reads an OpenDocument text with its meta title, each hit cited to its heading', async () => {
    const source = await indexedUpload(
      'survey.odt',
      await odfPackage('text', ODT_BODY, { title: 'Harbour Survey 2026' }),
    );
    expect(source).toMatchObject({
      content_type: 'application/vnd.oasis.opendocument.text',
      title: 'Harbour Survey 2026',
    });
    expect(await citation(source.id, 'Quillfeather accord')).toEqual({ page: null, section: 'Harbour Survey' });
    expect(await citation(source.id, 'Marrowick')).toEqual({ page: null, section: 'Tide tables' });
    expect(await hitsIn(source.id, 'zzcommentword')).toEqual([]);
  }, 60_000);

  it('cites an OpenDocument spreadsheet to its sheet and a presentation to its slide', async () => {
    const sheets = await indexedUpload('crew.ods', await odfPackage('spreadsheet', ODS_BODY));
    expect(sheets.content_type).toBe('application/vnd.oasis.opendocument.spreadsheet');
    expect(await citation(sheets.id, 'Navigator')).toEqual({ page: 1, section: 'Crew' });
    expect(await citation(sheets.id, 'Saffron bales')).toEqual({ page: 2, section: 'Cargo' });
    const slides = await indexedUpload(
      'talk.odp',
      await odfPackage('presentation', ODP_BODY, { title: 'Field notes' }),
    );
    expect(slides).toMatchObject({
      content_type: 'application/vnd.oasis.opendocument.presentation',
      title: 'Field notes',
    });
    expect(await citation(slides.id, 'lanternfish')).toEqual({ page: 1, section: 'Opening Moves' });
    expect(await citation(slides.id, 'Brackenridge observatory')).toEqual({ page: 2, section: 'Closing Remarks' });
    expect(await hitsIn(slides.id, 'zznotesword')).toEqual([]);
  }, 60_000);

  it('reads RTF with its info title, escapes decoded, table rows kept as lines under their heading', async () => {
    const source = await indexedUpload('log.rtf', RTF);
    expect(source).toMatchObject({ content_type: 'application/rtf', title: 'Lighthouse Keeper’s Log' });
    expect(await citation(source.id, 'café owner')).toEqual({ page: null, section: 'Arrival at Skerryvore' });
    expect(await citation(source.id, 'Murmansk')).toEqual({ page: null, section: 'Supplies' });
    expect((await hitsIn(source.id, 'Lamp oil'))[0].content).toContain('Lamp oil 40 gallons\nWicks 12');
    expect(await hitsIn(source.id, 'zzheaderword')).toEqual([]);
  }, 60_000);

  it('reads a macro-enabled workbook by sheet without its macros, and a Word 97–2003 document', async () => {
    const workbook = await indexedUpload('ledger.xlsm', await xlsm());
    expect(workbook.content_type).toBe('application/vnd.ms-excel.sheet.macroEnabled.12');
    expect(await citation(workbook.id, 'Copper rivets')).toEqual({ page: 1, section: 'Ledger' });
    expect(await citation(workbook.id, 'Thornbury')).toEqual({ page: 2, section: 'Macros notes' });
    expect(await hitsIn(workbook.id, 'zzmacroword')).toEqual([]);
    const word = await indexedUpload('beacon.doc', wordDocument(DOC_TEXT));
    expect(word).toMatchObject({ content_type: 'application/msword', title: 'Quarterly Beacon Report' });
    expect((await hitsIn(word.id, 'Penhallow lighthouse')).length).toBe(1);
  }, 60_000);

  it('refuses legacy Excel and PowerPoint with a 422 saying what to save them as, storing nothing', async () => {
    const before = await sourceCount();
    for (const [name, kind, advice] of [
      ['budget.xls', 'xls', 'save it as .xlsx'],
      ['deck.ppt', 'ppt', 'save it as .pptx'],
    ] as const) {
      const refused = await uploadSources(server, cookie, '/sources', [{ name, content: legacyOffice(kind) }], fields);
      const [issue] = validationIssuesOf(refused);
      expect(issue).toMatchObject({ loc: ['body', 'file'], type: 'content_type' });
      expect(issue.msg).toMatch(
        new RegExp(`^'${name.replace('.', '\\.')}' is a legacy .* 97–2003 .*${advice.replace('.', '\\.')}`),
      );
      expect((refused.body as { message: string }).message).toBe(issue.msg);
    }
    expect(await sourceCount()).toBe(before);
  }, 60_000);

  it('unpacks a zip holding an OpenDocument file as that document, listing a legacy member it cannot read', async () => {
    const zip = await zipArchive([
      { name: 'plans/survey.odt', content: await odfPackage('text', ODT_BODY) },
      { name: 'old/budget.xls', content: legacyOffice('xls') },
    ]);
    const batch = await uploadSources(server, cookie, '/sources/batch', [{ name: 'plans.zip', content: zip }], fields);
    expect(batch.status, batch.text).toBe(202);
    const body = batch.body as Batch;
    expect(body.files.map((file) => [file.filename, file.content_type])).toEqual([
      ['plans/survey.odt', 'application/vnd.oasis.opendocument.text'],
    ]);
    expect(body.errors).toEqual([
      {
        filename: 'old/budget.xls',
        error: expect.stringMatching(/^'old\/budget\.xls' is a legacy Excel 97–2003 workbook/),
      },
    ]);
    const member = await waitForSource(server, cookie, body.files[0].id, ['indexed', 'error']);
    expect(member.status, member.error_message ?? '').toBe('indexed');
    expect(await citation(member.id, 'Pellow Sound')).toEqual({ page: null, section: 'Tide tables' });
  }, 60_000);
});
