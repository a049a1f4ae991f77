import type { SourceStatus } from '@rhizome/contracts/api/sources';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkInContext } from '../../src/sources/chunk-context.ts';
import { domainRegistryFor } from '../../src/sources/domains/custom.ts';
import { requireSources, unknownSourceIds } from '../../src/sources/require-sources.ts';
import {
  clearCustomDomains,
  clearSources,
  forgetExtractionRuns,
  processingSourceIds,
} from '../../src/sources/reset.ts';
import { untranscribedSources } from '../../src/sources/transcription-retry.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/** What sources keep beside their rows — custom domains, chunks in context, recordings to retry — and the resets. */
describe.each(dialects)('sources upkeep on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;

  beforeAll(async () => {
    db = await databases.open('upkeep');
    const source = (id: string, minute: number, status: SourceStatus, extra: Record<string, unknown> = {}) => ({
      id,
      status,
      created_at: at(minute),
      updated_at: at(minute),
      ...extra,
    });
    await db('sources').insert([
      source('s_text', 1, 'indexed', { title: 'Notes', filename: 'notes.txt' }),
      source('s_run', 2, 'extracting', { extraction_job_id: 'job_1' }),
      source('s_staged', 3, 'extracted', { extraction_job_id: 'job_2' }),
      source('s_audio', 4, 'error', {
        file_type: 'audio',
        error_stage: 'indexing',
        error_message: 'This recording could not be transcribed: set transcription.provider',
      }),
      source('s_video', 5, 'error', { file_type: 'video', error_stage: 'indexing', error_message: 'disk full' }),
      source('s_wait', 6, 'pending', { filename: 'queued.txt' }),
    ]);
    await db('document_chunks').insert(
      [0, 1, 2, 3, 4].map((index) => ({
        id: `c${index}`,
        source_id: 's_text',
        chunk_index: index,
        content: `Part ${index}.`,
        chunk_metadata: index === 2 ? '{"page_starts":[]}' : null,
        created_at: at(1),
      })),
    );
  }, 120_000);
  afterAll(() => databases.close());

  it('quotes a chunk with its neighbours, and names the ids that are no source', async () => {
    const quoted = await chunkInContext(db, 'c2', 1);
    expect(quoted.source).toBe('Notes');
    expect(quoted.chunk).toMatchObject({ id: 'c2', content: 'Part 2.' });
    expect(quoted.chunk).not.toHaveProperty('chunk_metadata');
    expect(quoted.before.map((chunk) => chunk.id)).toEqual(['c1']);
    expect(quoted.after.map((chunk) => chunk.id)).toEqual(['c3']);
    expect((await chunkInContext(db, 'c0', 2)).after.map((chunk) => chunk.id)).toEqual(['c1', 'c2']);
    await expect(chunkInContext(db, 'nope', 1)).rejects.toMatchObject({ kind: 'not_found' });

    expect(await unknownSourceIds(db, ['x', 's_text', 'x', 'y'])).toEqual(['x', 'y']);
    await expect(requireSources(db, ['s_text', 'gone'])).rejects.toMatchObject({
      kind: 'not_found',
      details: { unknown_ids: ['gone'] },
    });
  });

  it('finds the recordings that failed for want of a transcriber', async () => {
    expect(await untranscribedSources(db)).toEqual(['s_audio']);
  });

  it("keeps a database's custom domains, refusing to delete one a source still waits for", async () => {
    const domains = await domainRegistryFor(db);
    const created = await domains.create({ copy_of: 'biographical', name: 'family-history' });
    expect(created.origin).toBe('database');
    await expect(
      (await domainRegistryFor(db)).create({ copy_of: 'biographical', name: 'family-history' }),
    ).rejects.toMatchObject({
      kind: 'conflict',
    });
    const reread = await domainRegistryFor(db);
    expect(reread.get('family-history')?.name).toBe('family-history');
    await reread.replace('family-history', { ...reread.get('family-history')!, description: 'Kin and records' });
    expect((await domainRegistryFor(db)).get('family-history')?.description).toBe('Kin and records');

    await db('sources').where({ id: 's_wait' }).update({ forced_domain: 'family-history' });
    await expect((await domainRegistryFor(db)).remove('family-history')).rejects.toMatchObject({
      kind: 'conflict',
      details: { source_ids: ['s_wait'] },
    });
    await db('sources').where({ id: 's_wait' }).update({ forced_domain: null });
    await (await domainRegistryFor(db)).remove('family-history');
    expect((await domainRegistryFor(db)).get('family-history')).toBeUndefined();
  });

  it('resets: lists what is still processing, forgets staged runs, then clears sources and domains', async () => {
    expect(await processingSourceIds(db)).toEqual(['s_run', 's_wait']);
    expect(await db.transaction((trx) => forgetExtractionRuns(trx))).toBe(1);
    expect(await db('sources').where({ id: 's_staged' }).first('status', 'extraction_job_id')).toEqual({
      status: 'indexed',
      extraction_job_id: null,
    });
    expect(await db('sources').whereNotNull('extraction_job_id').count({ n: '*' }).first()).toEqual({ n: 0 });

    await (await domainRegistryFor(db)).create({ copy_of: 'biographical', name: 'kept-until-reset' });
    const cleared = await db.transaction((trx) => clearSources(trx));
    expect(cleared).toMatchObject({ sources_deleted: 6, chunks_deleted: 5 });
    expect(cleared.ids.sort()).toEqual(['s_audio', 's_run', 's_staged', 's_text', 's_video', 's_wait']);
    expect(await db('document_chunks').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await db.transaction((trx) => clearCustomDomains(trx))).toBe(1);
  });
});
