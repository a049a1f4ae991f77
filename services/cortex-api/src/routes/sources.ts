import fs from 'node:fs';
import { batchResult } from '@rhizome/contracts/api/batch';
import { sourceEndpoints as api, type UploadOptionsInput } from '@rhizome/contracts/api/sources';
import type { QueryOf } from '@rhizome/contracts/endpoint';
import { ApiError } from '@rhizome/contracts/errors';
import { incomingDir, originalPath } from '@rhizome/core/sources';
import { allowedType } from '@rhizome/core/sources';
import { sourcesModule, type ReceivedFile } from '@rhizome/core/sources';
import { sourceCitations } from '@rhizome/core/extraction';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { Request, Response } from 'express';
import { emptyFileError, receiveUpload, type UploadedFile } from '../http/upload.ts';
import type { RouteTable } from '../http/route.ts';
import { requestedDatabase, type RequestScope } from '../http/request-scope.ts';
import { isRefusal } from '../http/errors.ts';
import type { CortexDeps } from '../deps.ts';

const receivedKey = Symbol('received uploads');
type WithUploads = Request & { [receivedKey]?: UploadedFile[] };

/** Upload, list, inspect, change and delete sources of the active database. */
export function mountSourceRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings } = platform;
  // Checked before anything is written, so an unknown name never leaves a directory that looks like a database.
  const uploadDatabase = (req: Request) => {
    const requested = requestedDatabase(req);
    return requested ? platform.databases.info(requested).name : platform.databases.currentName();
  };
  const receiver = (field: string, multiple: boolean) => async (req: Request, res: Response) => {
    const current = settings.get().batching;
    const files = await receiveUpload(req, res, {
      dir: incomingDir(platform.paths, uploadDatabase(req)),
      field,
      multiple,
      maxBytes: current.max_upload_bytes,
      maxFiles: multiple ? current.max_upload_files : 1,
    });
    (req as WithUploads)[receivedKey] = files;
  };
  const withUploads = <T>(req: Request, work: (files: UploadedFile[]) => Promise<T>) =>
    work((req as WithUploads)[receivedKey] ?? []);

  routes.add(
    api.upload,
    ({ req, body, scope }) =>
      withUploads(req, async ([file]) => {
        if (!file)
          throw ApiError.validation([
            { loc: ['body', 'file'], msg: 'A file is required (multipart field "file")', type: 'missing' },
          ]);
        const service = await scope.service(sourcesModule);
        const container = await service.createFromContainer(file, body as UploadOptionsInput, settings.get());
        if (container) {
          // One source answers, as for any upload; the others and the refused members come beside it.
          const [first, ...rest] = container.sources;
          if (!first) throw noMemberError(file, container.refused);
          return {
            ...(await service.view(first)),
            unpacked: { source_ids: [first, ...rest].map((source) => source.id), errors: container.refused },
          };
        }
        const received = await accept(file, 'file', settings.get().batching.allowed_content_types);
        const { source } = await service.createFromFile(received, body as UploadOptionsInput);
        return service.view(source);
      }),
    receiver('file', false),
  );

  routes.add(
    api.uploadBatch,
    ({ req, body, scope }) =>
      withUploads(req, async (files) => {
        if (!files.length)
          throw ApiError.validation([
            { loc: ['body', 'files'], msg: 'At least one file is required (multipart field "files")', type: 'missing' },
          ]);
        const service = await scope.service(sourcesModule);
        const created = [];
        const errors: { filename: string; error: string }[] = [];
        for (const file of files) {
          try {
            const container = await service.createFromContainer(file, body as UploadOptionsInput, settings.get());
            if (container) {
              created.push(...container.sources);
              errors.push(...container.refused);
              continue;
            }
            created.push(
              (
                await service.createFromFile(
                  await accept(file, 'files', settings.get().batching.allowed_content_types),
                  body as UploadOptionsInput,
                )
              ).source,
            );
          } catch (error) {
            if (!isRefusal(error)) throw error;
            errors.push({ filename: file.filename, error: error.message });
          }
        }
        return { uploaded: created.length, failed: errors.length, files: await service.views(created), errors };
      }),
    receiver('files', true),
  );

  routes.add(api.importUrl, async ({ body: { url, ...options }, scope }) => {
    const service = await scope.service(sourcesModule);
    const { source } = await service.importUrl(url, options);
    return service.view(source);
  });
  routes.add(api.list, async ({ query, scope }) => {
    const service = await scope.service(sourcesModule);
    const window = pageWindow(query, settings.get().pagination);
    const { rows, total } = await service.list(listFilter(query), { offset: window.offset, limit: window.pageSize });
    return { data: await service.views(rows), pagination: pagination(total, window) };
  });
  routes.add(api.stats, async ({ scope }) => (await scope.service(sourcesModule)).statistics());
  routes.add(api.stopProcessing, async ({ params, scope }) => {
    const service = await scope.service(sourcesModule);
    const { cancelled, status } = await service.stopProcessing(params.source_id);
    return { source_id: params.source_id, cancelled_tasks: cancelled, status };
  });
  routes.add(api.domains, async ({ scope }) => ({ domains: await (await scope.service(sourcesModule)).domains() }));
  routes.add(api.confirm, async ({ params, body, scope }) => {
    const service = await scope.service(sourcesModule);
    const outcome = await service.confirm(params.source_id, body);
    return { source_id: params.source_id, confirmed: true, ...outcome };
  });
  routes.add(api.confirmMany, async ({ body, scope }) => {
    const { source_ids: ids, ...options } = body;
    const service = await scope.service(sourcesModule);
    const results = [];
    for (const sourceId of new Set(ids)) {
      try {
        results.push({
          source_id: sourceId,
          success: true,
          status: (await service.confirm(sourceId, options)).status,
          error: null,
        });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        results.push({ source_id: sourceId, success: false, status: null, error: error.message });
      }
    }
    return { confirmed: results.filter((result) => result.success).length, results };
  });
  routes.add(api.bulk, async ({ body, scope }) => {
    const apply = await (await scope.service(sourcesModule)).bulk.step(body.action, body.tag_id);
    const results = [];
    for (const [index, sourceId] of body.source_ids.entries()) {
      try {
        await apply(sourceId);
        results.push({ index, operation: body.action, success: true, id: sourceId });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        results.push({ index, operation: body.action, success: false, id: sourceId, error: error.message });
      }
    }
    return batchResult(results);
  });
  routes.add(api.startBulkJob, async ({ body, scope }) => {
    const { action, tag_id: tagId, source_ids: sourceIds, filter } = body;
    if ((sourceIds === undefined) === (filter === undefined))
      throw ApiError.validation([{ loc: ['body'], msg: 'Give either source_ids or filter', type: 'value_error' }]);
    return (await scope.service(sourcesModule)).bulk.start(
      action,
      tagId,
      sourceIds ? { sourceIds } : { filter: listFilter(filter!) },
    );
  });
  routes.add(api.bulkJob, async ({ params, scope }) => (await scope.service(sourcesModule)).bulk.get(params.job_id));
  routes.add(api.chunks, async ({ params, query, scope }) => {
    const window = pageWindow(query, settings.get().pagination);
    const { rows, total } = await (
      await scope.service(sourcesModule)
    ).chunks(params.source_id, { offset: window.offset, limit: window.pageSize });
    return { data: rows, pagination: pagination(total, window) };
  });
  routes.add(api.chunk, async ({ params, scope }) =>
    (await scope.service(sourcesModule)).chunk(params.source_id, params.chunk_id),
  );
  routes.add(api.sourceStats, async ({ params, scope }) => {
    const service = await scope.service(sourcesModule);
    const row = await service.require(params.source_id);
    const [view, citations] = await Promise.all([service.view(row), service.citationCount(row.id)]);
    return {
      source_id: row.id,
      chunk_count: row.chunk_count,
      embedded_chunk_count: row.embedded_chunk_count,
      entity_count: view.extraction_entities_count,
      relationship_count: view.extraction_relationships_count,
      citation_count: citations,
      index_timings: view.index_timings,
      llm: {
        calls: view.llm_total_calls,
        failed_calls: view.llm_failed_calls,
        input_tokens: view.llm_total_input_tokens,
        output_tokens: view.llm_total_output_tokens,
        duration_ms: view.llm_total_duration_ms,
      },
    };
  });
  routes.add(api.citations, async ({ params, query, scope }) => {
    await (await scope.service(sourcesModule)).require(params.source_id);
    const window = pageWindow(query, settings.get().pagination);
    const { db } = await scope.database();
    const { items, total } = await sourceCitations(db, params.source_id, {
      offset: window.offset,
      limit: window.pageSize,
    });
    return { citations: items, total, page: window.page, page_size: window.pageSize };
  });
  const tagsOf = async (scope: RequestScope) => (await scope.service(sourcesModule)).tags;
  routes.add(api.listTags, async ({ scope }) => (await tagsOf(scope)).list());
  routes.add(api.getTag, async ({ params, scope }) => (await tagsOf(scope)).get(params.tag_id));
  routes.add(api.createTag, async ({ body, scope }) =>
    (await tagsOf(scope)).create(body.name, body.color ?? null, body.description ?? null),
  );
  routes.add(api.updateTag, async ({ params, body, scope }) => (await tagsOf(scope)).update(params.tag_id, body));
  routes.add(api.deleteTag, async ({ params, scope }) => (await tagsOf(scope)).delete(params.tag_id));
  routes.add(api.sourceTags, async ({ params, scope }) => {
    const service = await scope.service(sourcesModule);
    await service.require(params.source_id);
    return service.tags.ofSource(params.source_id);
  });
  routes.add(api.addTag, async ({ params, scope }) => {
    if (!(await (await tagsOf(scope)).attach(params.source_id, params.tag_id)))
      throw new ApiError(
        404,
        'SOURCE_OR_TAG_NOT_FOUND',
        `Source '${params.source_id}' or tag '${params.tag_id}' not found`,
        { source_id: params.source_id, tag_id: params.tag_id },
      );
  });
  routes.add(api.removeTag, async ({ params, scope }) => (await tagsOf(scope)).detach(params.source_id, params.tag_id));
  routes.add(api.original, async ({ params, res, scope }) => {
    const service = await scope.service(sourcesModule);
    const row = await service.require(params.source_id);
    if (!row.stored_filename) throw ApiError.notFound('source_original', params.source_id);
    const file = originalPath(platform.paths, (await scope.database()).name, row.id, row.stored_filename);
    if (!fs.existsSync(file)) throw ApiError.notFound('source_original', params.source_id);
    res.setHeader('content-type', row.content_type ?? 'application/octet-stream');
    res.setHeader(
      'content-disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(row.filename ?? row.stored_filename)}`,
    );
    await new Promise<void>((resolve, reject) => res.sendFile(file, (error) => (error ? reject(error) : resolve())));
  });
  // After the fixed paths (/sources/domains, /sources/tags …), which this pattern would otherwise take.
  routes.add(api.get, async ({ params, scope }) => {
    const service = await scope.service(sourcesModule);
    return service.view(await service.require(params.source_id));
  });
  routes.add(api.patch, async ({ params, body, scope }) => {
    const service = await scope.service(sourcesModule);
    return service.view(await service.patch(params.source_id, body));
  });
  routes.add(api.delete, async ({ params, scope }) => {
    await (await scope.service(sourcesModule)).delete(params.source_id);
  });
}

/** The source list's filter from its query, as GET /sources and a bulk job's filter give it. */
function listFilter(query: Omit<QueryOf<typeof api.list>, 'page' | 'page_size'>) {
  return {
    sourceType: query.source_type,
    status: query.status,
    enabled: query.enabled === undefined ? undefined : query.enabled === 'enabled',
    search: query.search,
    tagId: query.tag_id,
  };
}

/**
 * Checks one uploaded file: not empty, and its bytes (not its name) a type the upload allowlist takes; a 422
 * naming the file otherwise, whose message a multi-file upload lists among its per-file errors.
 */
async function accept(file: UploadedFile, field: string, allowed: string[]): Promise<ReceivedFile> {
  if (file.size === 0) throw emptyFileError(file, field);
  const refusal = (msg: string) => ApiError.validation([{ loc: ['body', field], msg, type: 'content_type' }], msg);
  const type = await allowedType(file.path, file.filename, allowed);
  if ('refused' in type) throw refusal(type.refused);
  return { ...file, mediaType: type.mediaType, format: type.format };
}

/** An archive or mailbox none of whose members is a file Rhizome reads: a 422 listing why for each. */
function noMemberError(file: UploadedFile, refused: { filename: string; error: string }[]): ApiError {
  const msg = `'${file.filename}' holds no file Rhizome can read${refused.length ? `: ${refused.map((member) => member.error).join('; ')}` : ''}`;
  return ApiError.validation([{ loc: ['body', 'file'], msg, type: 'content_type' }], msg);
}
