import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { BadInput, Invalid } from '@rhizome/contracts/errors';
import { ErrorCode, ApiError } from '@rhizome/contracts/errors';
import { extractionModule } from '@rhizome/core/extraction';
import {
  fetchUrlOperation,
  getSource,
  incomingDir,
  sniffFile,
  sourcesModule,
  urlErrorTypes,
  type ReceivedFile,
  type StagedFetch,
} from '@rhizome/core/sources';
import { awaitTask } from '@rhizome/core/tasks';
import type { Platform } from '@rhizome/core/platform';
import { sandboxFile } from '../sandbox.ts';
import { tool, type ToolContext } from '../tool.ts';
import { sourceProgress, sourceSummary } from './source-tools.ts';

const SourceId = Type.String({ minLength: 1 });
const Domain = Type.String({ minLength: 1, maxLength: 100, description: 'the extraction domain (default: detected)' });

/** A file copied into the database's incoming folder, hashed and sniffed like an upload, refused as an upload would be. */
async function received(platform: Platform, from: string | { text: string }, filename: string): Promise<ReceivedFile> {
  const dir = incomingDir(platform.paths, platform.databases.currentName());
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, `mcp-${randomBytes(8).toString('hex')}`);
  if (typeof from === 'string') await fs.promises.copyFile(from, target);
  else await fs.promises.writeFile(target, from.text);
  const bytes = await fs.promises.readFile(target);
  const { max_upload_bytes, allowed_content_types } = platform.settings.get().batching;
  const refuse = async (message: string) => {
    await fs.promises.rm(target, { force: true });
    return new Invalid(
      [{ loc: ['body', typeof from === 'string' ? 'path' : 'text'], msg: message, type: 'content_type' }],
      message,
    );
  };
  if (bytes.length > max_upload_bytes)
    throw await refuse(`'${filename}' is ${bytes.length} bytes, over batching.max_upload_bytes (${max_upload_bytes})`);
  const sniffed = await sniffFile(target, filename);
  if (!sniffed) throw await refuse(`'${filename}' is not a file type Rhizome can read`);
  if (!allowed_content_types.includes('*') && !allowed_content_types.includes(sniffed.mediaType)) {
    throw await refuse(`'${filename}' is ${sniffed.mediaType}, which batching.allowed_content_types does not allow`);
  }
  return {
    path: target,
    filename,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: sniffed.mediaType,
    format: sniffed.format,
  };
}

/** The page behind a URL, fetched by the worker under the URL-import address policy (as POST /sources/url). */
async function fetched(platform: Platform, url: string): Promise<StagedFetch> {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw BadInput.field('url must be an http:// or https:// URL', 'url');
  const database = platform.databases.currentName();
  const task = await platform.queue.submit({
    queue: 'operations',
    operation: fetchUrlOperation,
    priority: 90,
    data: { database, url },
    metadata: { database },
  });
  const outcome = await awaitTask(
    platform.tasks,
    task.task_id,
    (platform.settings.get().timeouts.url_fetch + 30) * 1000,
  );
  if (outcome.ok) return outcome.result as StagedFetch;
  if (outcome.errorType === urlErrorTypes.invalid || outcome.errorType === urlErrorTypes.refused)
    throw BadInput.field(outcome.error, 'url');
  throw new ApiError(422, ErrorCode.operationError, `Could not import ${url}: ${outcome.error}`, {
    operation: 'url_import',
  });
}

const settled: Record<'indexed' | 'committed', readonly string[]> = {
  indexed: [
    'indexed',
    'awaiting_confirmation',
    'extracting',
    'mcp_extracting',
    'extracted',
    'committing',
    'committed',
    'error',
  ],
  committed: ['committed', 'awaiting_confirmation', 'mcp_extracting', 'error'],
};

async function addDocument(args: AddDocumentArgs, { platform, scope }: ToolContext) {
  const given = [args.path, args.url, args.text].filter((value) => value !== undefined).length;
  if (given !== 1) throw BadInput.field('Give exactly one of path (a file in the MCP sandbox), url or text', 'path');
  const options = {
    domain: args.domain ?? null,
    extract_entities: args.extract_entities,
    auto_confirm: args.auto_confirm,
    analysis_depth: args.analysis_depth,
    skip_duplicates: args.skip_duplicates,
  };
  const service = await scope.service(sourcesModule);
  if (args.url !== undefined) {
    const staged = await fetched(platform, args.url);
    try {
      const { source } = await service.createFromFile(
        staged,
        { ...options, enable_vision: true },
        { sourceType: 'webpage', originUrl: staged.finalUrl, title: args.title ?? staged.title },
      );
      return sourceSummary(await service.view(source));
    } finally {
      await fs.promises.rm(staged.path, { force: true });
    }
  }
  const file =
    args.path !== undefined
      ? await received(platform, await sandboxFile(platform.paths.root, args.path), path.basename(args.path))
      : await received(
          platform,
          { text: args.text ?? '' },
          `${(args.title ?? 'note').replace(/[^\w .-]+/g, '_').slice(0, 80)}.md`,
        );
  const { source, duplicate } = await service.createFromFile(
    file,
    options,
    args.title ? { sourceType: 'file', title: args.title } : undefined,
  );
  return { ...sourceSummary(await service.view(source)), duplicate };
}

const AddDocument = Type.Object({
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'a file inside <data_dir>/mcp/, relative to it (no .., no hidden files, no links)',
    }),
  ),
  url: Type.Optional(
    Type.String({ minLength: 1, maxLength: 8192, description: 'an http(s) page to import (public addresses only)' }),
  ),
  text: Type.Optional(
    Type.String({ minLength: 1, maxLength: 5_000_000, description: 'the document itself, as Markdown or plain text' }),
  ),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  domain: Type.Optional(Domain),
  extract_entities: Type.Boolean({
    default: true,
    description: 'false: index only (e.g. to extract it yourself with get_extraction_tasks)',
  }),
  auto_confirm: Type.Boolean({
    default: false,
    description: 'true: extract without waiting for the detected domain to be confirmed',
  }),
  analysis_depth: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('quick')])),
  skip_duplicates: Type.Boolean({ default: false }),
});
type AddDocumentArgs = typeof AddDocument.static;

export const documentTools = [
  tool({
    name: 'add_document',
    kind: 'write',
    description:
      'Add a document: a file in the MCP sandbox folder (<data_dir>/mcp/), a web page URL, or inline text; it is indexed (and extracted unless extract_entities is false).',
    input: AddDocument,
    run: addDocument,
  }),
  tool({
    name: 'wait_for_document',
    kind: 'write',
    description:
      'Wait until a document is indexed (searchable) or committed (in the graph), failed, or parked for confirmation; returns its progress.',
    input: Type.Object({
      source_id: SourceId,
      until: Type.Union([Type.Literal('indexed'), Type.Literal('committed')], { default: 'committed' }),
      timeout_seconds: Type.Integer({ minimum: 1, maximum: 600, default: 120 }),
    }),
    async run({ source_id, until, timeout_seconds }, { scope }) {
      const { db } = await scope.database();
      const deadline = Date.now() + timeout_seconds * 1000;
      for (;;) {
        const source = await getSource(db, source_id);
        const done = !source || settled[until].includes(source.status);
        if (done || Date.now() >= deadline) return { ...(await sourceProgress(scope, source_id)), timed_out: !done };
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  }),
  tool({
    name: 'remove_document',
    kind: 'write',
    description: 'Delete a document with its chunks and its contribution to the graph.',
    input: Type.Object({ source_id: SourceId }),
    async run({ source_id }, { platform, scope }) {
      const service = await scope.service(sourcesModule);
      await platform.chunkVectors.remove((await scope.database()).name, await service.delete(source_id));
      return { source_id, deleted: true };
    },
  }),
  tool({
    name: 'confirm_source_domain',
    kind: 'write',
    description:
      'Confirm (or change) the domain of a document parked at awaiting_confirmation; its extraction then starts.',
    input: Type.Object({
      source_id: SourceId,
      domain: Type.Optional(Domain),
      analysis_depth: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('quick')])),
    }),
    async run({ source_id, domain, analysis_depth }, { scope }) {
      const outcome = await (
        await scope.service(sourcesModule)
      ).confirm(source_id, { domain: domain ?? null, analysis_depth });
      await (await scope.service(extractionModule)).startAfterGate(source_id);
      return { source_id, confirmed: true, ...outcome };
    },
  }),
];
