import fs from 'node:fs';
import { sourceEndpoints as api, type UploadOptionsInput } from '@rhizome/contracts/api/sources';
import { ApiError, ErrorCode } from '@rhizome/contracts/errors';
import { awaitTask } from '@rhizome/core/tasks';
import { fetchUrlOperation } from '@rhizome/core/sources';
import { urlErrorTypes, type StagedFetch } from '@rhizome/core/sources';
import type { Platform } from '@rhizome/core/platform';
import { incomingDir, originalPath } from '@rhizome/core/sources';
import { sniffFile } from '@rhizome/core/sources';
import { domainRegistryFor } from '@rhizome/core/sources';
import { domainSummary } from '@rhizome/core/sources';
import { listSources, sourceStatistics } from '@rhizome/core/sources';
import { SourceTags } from '@rhizome/core/sources';
import { SourceService, type ReceivedFile } from '@rhizome/core/sources';
import { startAfterGate } from '@rhizome/core/extraction';
import { extractionServiceFor } from './extraction.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { Request, Response } from 'express';
import { receiveUpload, type UploadedFile } from '../http/upload.ts';
import type { RouteTable } from '../http/route.ts';
import { isRefusal } from '../http/errors.ts';
import type { CortexDeps } from '../deps.ts';

const receivedKey = Symbol('received uploads');
type WithUploads = Request & { [receivedKey]?: UploadedFile[] };

export async function sourceServiceFor(platform: Platform): Promise<SourceService> {
  const { name, db } = await platform.databases.current();
  return new SourceService({
    db, database: name, paths: platform.paths, processing: platform.processing, metrics: platform.providers.metrics, queue: platform.queue, tasks: platform.tasks, logger: platform.logger,
  });
}

/** Upload, list, inspect, change and delete sources of the active database. */
export function mountSourceRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings } = platform;
  const receiver = (field: string, multiple: boolean) => async (req: Request, res: Response) => {
    const current = settings.get().batching;
    const files = await receiveUpload(req, res, {
      dir: incomingDir(platform.paths, platform.databases.currentName()), field, multiple,
      maxBytes: current.max_upload_bytes, maxFiles: multiple ? current.max_upload_files : 1,
    });
    (req as WithUploads)[receivedKey] = files;
  };
  const startExtraction = async (sourceId: string) => {
    const { db } = await platform.databases.current();
    await startAfterGate(await extractionServiceFor(platform), db, sourceId);
  };
  const withUploads = <T>(req: Request, work: (files: UploadedFile[]) => Promise<T>) => work((req as WithUploads)[receivedKey] ?? []);

  routes.add(api.upload, ({ req, body }) => withUploads(req, async ([file]) => {
    if (!file) throw ApiError.validation([{ loc: ['body', 'file'], msg: 'A file is required (multipart field "file")', type: 'missing' }]);
    const service = await sourceServiceFor(platform);
    const received = await accept(file, settings.get().batching.allowed_content_types);
    const { source } = await service.createFromFile(received, body as UploadOptionsInput);
    return service.view(source);
  }), receiver('file', false));

  routes.add(api.uploadBatch, ({ req, body }) => withUploads(req, async (files) => {
    if (!files.length) throw ApiError.validation([{ loc: ['body', 'files'], msg: 'At least one file is required (multipart field "files")', type: 'missing' }]);
    const service = await sourceServiceFor(platform);
    const created = [];
    const errors: { filename: string; error: string }[] = [];
    for (const file of files) {
      try {
        created.push((await service.createFromFile(await accept(file, settings.get().batching.allowed_content_types), body as UploadOptionsInput)).source);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        errors.push({ filename: file.filename, error: error.message });
      }
    }
    return { uploaded: created.length, failed: errors.length, files: await service.views(created), errors };
  }), receiver('files', true));

  routes.add(api.importUrl, async ({ body }) => {
    const { url, ...options } = body;
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw ApiError.badRequest('url must be an http:// or https:// URL', 'url');
    const database = platform.databases.currentName();
    const task = await platform.queue.submit({ queue: 'operations', operation: fetchUrlOperation, priority: 90, data: { database, url }, metadata: { database } });
    const outcome = await awaitTask(platform.tasks, task.task_id, (settings.get().timeouts.url_fetch + 30) * 1000);
    if (!outcome.ok) {
      if (outcome.errorType === urlErrorTypes.invalid || outcome.errorType === urlErrorTypes.refused) throw ApiError.badRequest(outcome.error, 'url');
      throw new ApiError(422, ErrorCode.operationError, `Could not import ${url}: ${outcome.error}`, { operation: 'url_import' });
    }
    const staged = outcome.result as StagedFetch;
    const service = await sourceServiceFor(platform);
    try {
      const { source } = await service.createFromFile(staged, { ...options, enable_vision: options.enable_vision ?? true }, { sourceType: 'webpage', originUrl: staged.finalUrl, title: staged.title });
      return service.view(source);
    } finally {
      await fs.promises.rm(staged.path, { force: true });
    }
  });
  routes.add(api.list, async ({ query }) => {
    const service = await sourceServiceFor(platform);
    const { db } = await platform.databases.current();
    const window = pageWindow(query, settings.get().pagination);
    const filter = { sourceType: query.source_type, status: query.status, enabled: query.enabled === undefined ? undefined : query.enabled === 'enabled', search: query.search, tagId: query.tag_id };
    const { rows, total } = await listSources(db, filter, window.offset, window.pageSize);
    return { data: await service.views(rows), pagination: pagination(total, window) };
  });
  routes.add(api.stats, async () => sourceStatistics((await platform.databases.current()).db));
  routes.add(api.stopProcessing, async ({ params }) => {
    const service = await sourceServiceFor(platform);
    const { cancelled, status } = await service.stopProcessing(params.source_id);
    return { source_id: params.source_id, cancelled_tasks: cancelled, status };
  });
  routes.add(api.domains, async () => {
    const { db } = await platform.databases.current();
    return { domains: (await domainRegistryFor(db)).all().map(domainSummary) };
  });
  routes.add(api.confirm, async ({ params, body }) => {
    const service = await sourceServiceFor(platform);
    const outcome = await service.confirm(params.source_id, body);
    await startExtraction(params.source_id);
    return { source_id: params.source_id, confirmed: true, ...outcome };
  });
  routes.add(api.confirmMany, async ({ body }) => {
    const { source_ids: ids, ...options } = body;
    const service = await sourceServiceFor(platform);
    const results = [];
    for (const sourceId of new Set(ids)) {
      try {
        results.push({ source_id: sourceId, success: true, status: (await service.confirm(sourceId, options)).status, error: null });
        await startExtraction(sourceId);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        results.push({ source_id: sourceId, success: false, status: null, error: error.message });
      }
    }
    return { confirmed: results.filter((result) => result.success).length, results };
  });
  routes.add(api.chunks, async ({ params, query }) => {
    const service = await sourceServiceFor(platform);
    await service.require(params.source_id);
    const { db } = await platform.databases.current();
    const window = pageWindow(query, settings.get().pagination);
    const [rows, count] = await Promise.all([
      db('document_chunks').where({ source_id: params.source_id }).orderBy('chunk_index').offset(window.offset).limit(window.pageSize).select(chunkColumns),
      db('document_chunks').where({ source_id: params.source_id }).count({ n: '*' }).first(),
    ]);
    return { data: rows as ChunkView[], pagination: pagination(Number((count as { n: number }).n), window) };
  });
  routes.add(api.chunk, async ({ params }) => {
    const { db } = await platform.databases.current();
    const row = (await db('document_chunks').where({ source_id: params.source_id, id: params.chunk_id }).first(chunkColumns)) as ChunkView | undefined;
    if (!row) throw ApiError.notFound('chunk', params.chunk_id);
    return row;
  });
  routes.add(api.sourceStats, async ({ params }) => {
    const service = await sourceServiceFor(platform);
    const row = await service.require(params.source_id);
    const [view] = await service.views([row]);
    const { db } = await platform.databases.current();
    const citations = (await db('source_citations').whereIn('chunk_id', db('document_chunks').select('id').where({ source_id: row.id })).count({ n: '*' }).first()) as { n: number };
    return {
      source_id: row.id, chunk_count: row.chunk_count, embedded_chunk_count: row.embedded_chunk_count,
      entity_count: view.extraction_entities_count, relationship_count: view.extraction_relationships_count, citation_count: Number(citations.n),
      index_timings: view.index_timings,
      llm: { calls: view.llm_total_calls, failed_calls: view.llm_failed_calls, input_tokens: view.llm_total_input_tokens, output_tokens: view.llm_total_output_tokens, duration_ms: view.llm_total_duration_ms },
    };
  });
  const tagsOf = async () => new SourceTags((await platform.databases.current()).db);
  routes.add(api.listTags, async () => ({ tags: await (await tagsOf()).list() }));
  routes.add(api.createTag, async ({ body }) => (await tagsOf()).create(body.name, body.color ?? null));
  routes.add(api.updateTag, async ({ params, body }) => (await tagsOf()).update(params.tag_id, body));
  routes.add(api.deleteTag, async ({ params }) => (await tagsOf()).delete(params.tag_id));
  routes.add(api.sourceTags, async ({ params }) => {
    await (await sourceServiceFor(platform)).require(params.source_id);
    return { tags: await (await tagsOf()).ofSource(params.source_id) };
  });
  routes.add(api.addTag, async ({ params }) => {
    await (await sourceServiceFor(platform)).require(params.source_id);
    return { tags: await (await tagsOf()).attach(params.source_id, params.tag_id) };
  });
  routes.add(api.removeTag, async ({ params }) => {
    await (await sourceServiceFor(platform)).require(params.source_id);
    return { tags: await (await tagsOf()).detach(params.source_id, params.tag_id) };
  });
  routes.add(api.original, async ({ params, res }) => {
    const service = await sourceServiceFor(platform);
    const row = await service.require(params.source_id);
    if (!row.stored_filename) throw ApiError.notFound('source_original', params.source_id);
    const file = originalPath(platform.paths, platform.databases.currentName(), row.id, row.stored_filename);
    if (!fs.existsSync(file)) throw ApiError.notFound('source_original', params.source_id);
    res.setHeader('content-type', row.content_type ?? 'application/octet-stream');
    res.setHeader('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.filename ?? row.stored_filename)}`);
    await new Promise<void>((resolve, reject) => res.sendFile(file, (error) => (error ? reject(error) : resolve())));
  });
  // After the fixed paths (/sources/domains, /sources/tags …), which this pattern would otherwise take.
  routes.add(api.get, async ({ params }) => {
    const service = await sourceServiceFor(platform);
    return service.view(await service.require(params.source_id));
  });
  routes.add(api.patch, async ({ params, body }) => {
    const service = await sourceServiceFor(platform);
    return service.view(await service.patch(params.source_id, body));
  });
  routes.add(api.delete, async ({ params }) => {
    const service = await sourceServiceFor(platform);
    await platform.chunkVectors.remove(platform.databases.currentName(), await service.delete(params.source_id));
  });
}

const chunkColumns = [
  'id', 'source_id', 'chunk_index', 'content', 'page_number', 'section', 'start_offset', 'end_offset', 'original_start', 'original_end', 'offset_match', 'token_estimate', 'created_at',
];

interface ChunkView {
  id: string;
  source_id: string;
  chunk_index: number;
  content: string;
  page_number: number | null;
  section: string | null;
  start_offset: number | null;
  end_offset: number | null;
  original_start: number | null;
  original_end: number | null;
  offset_match: string | null;
  token_estimate: number | null;
  created_at: string;
}

/** Checks the bytes (not the name) against the upload allowlist; 422 naming the file field otherwise. */
async function accept(file: UploadedFile, allowed: string[]): Promise<ReceivedFile> {
  const sniffed = await sniffFile(file.path, file.filename);
  if (!sniffed) throw ApiError.validation([{ loc: ['body', 'file'], msg: `'${file.filename}' is not a file type Rhizome can read`, type: 'content_type' }]);
  if (!allowed.includes('*') && !allowed.includes(sniffed.mediaType)) {
    throw ApiError.validation([{ loc: ['body', 'file'], msg: `'${file.filename}' is ${sniffed.mediaType}, which batching.allowed_content_types does not allow`, type: 'content_type' }]);
  }
  return { ...file, mediaType: sniffed.mediaType, format: sniffed.format };
}
