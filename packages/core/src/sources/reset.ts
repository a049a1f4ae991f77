import type { SourceStatus } from '@rhizome/contracts/api/sources';
import type { Db } from '../storage/index.ts';

/** Statuses of a source with a queued or running indexing, description, extraction or commit. */
const processingStatuses: readonly SourceStatus[] = [
  'pending',
  'indexing',
  'vision_pending',
  'extracting',
  'mcp_extracting',
  'committing',
];

/** A staged run waits for a commit or a confirmation: without its job it is an indexed source again. */
const stagedStatuses: readonly SourceStatus[] = ['extracted', 'awaiting_confirmation'];

/** The sources a reset would pull the ground from under: something is still being written for them. */
export async function processingSourceIds(db: Db): Promise<string[]> {
  const rows = await db('sources').whereIn('status', processingStatuses).orderBy('created_at').select('id');
  return rows.map((row) => row.id);
}

/**
 * Forgets every source's extraction run once the runs themselves are gone: staged sources return to
 * indexed, and none keeps a link to its job. Committed sources stay committed.
 */
export async function forgetExtractionRuns(trx: Db): Promise<number> {
  const returned = await trx('sources').whereIn('status', stagedStatuses).update({
    status: 'indexed',
    pending_confirmation: null,
    current_step: 'indexed',
    step_description: 'Extraction state reset by the operator',
    updated_at: new Date().toISOString(),
  });
  await trx('sources').whereNotNull('extraction_job_id').update({ extraction_job_id: null });
  return returned;
}

export interface ClearedSources {
  ids: string[];
  sources_deleted: number;
  chunks_deleted: number;
}

/** Deletes every source with its chunks, their vectors and groups, tags, names and document links; custom domains stay. */
export async function clearSources(trx: Db): Promise<ClearedSources> {
  const ids = (await trx('sources').select('id')).map((row) => row.id);
  const chunks = (await trx('document_chunks').count({ n: '*' }).first()) as { n: number | string } | undefined;
  for (const table of [
    'document_links',
    'source_names',
    'source_tag_links',
    'source_tags',
    'chunk_vectors',
    'chunk_groups',
    'document_chunks',
    'sources',
  ] as const)
    await trx(table).delete();
  return { ids, sources_deleted: ids.length, chunks_deleted: Number(chunks?.n ?? 0) };
}

/** The operator's own extraction domains: a new database has none. */
export function clearCustomDomains(trx: Db): Promise<number> {
  return trx('custom_domains').delete();
}
