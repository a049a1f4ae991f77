import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { BadInput, Invalid } from '@rhizome/contracts/errors';
import { filteringModes } from '@rhizome/contracts/settings';
import { allowedType, incomingDir, sourcesModule, type ReceivedFile } from '@rhizome/core/sources';
import type { Platform } from '@rhizome/core/platform';
import { sandboxFile } from '../sandbox.ts';
import { deprecated, tool, type ToolContext } from '../tool.ts';
import { sourceProgress, sourceSummary } from './source-tools.ts';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';

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
  const type = await allowedType(target, filename, allowed_content_types);
  if ('refused' in type) throw await refuse(type.refused);
  return {
    path: target,
    filename,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: type.mediaType,
    format: type.format,
  };
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

/** Where a document comes from: exactly one of a sandbox file, a URL or inline text, under either name. */
function documentOrigin(args: AddDocumentArgs): { path: string } | { url: string } | { text: string } {
  const filePath = args.file_path ?? args.path;
  const text = args.content ?? args.text;
  const given = [filePath, args.url, text].filter((value) => value !== undefined).length;
  if (given !== 1)
    throw BadInput.field(
      'Give exactly one of file_path (a file in the MCP sandbox, or a URL), url or content (inline text)',
      'file_path',
    );
  if (args.url !== undefined) return { url: args.url };
  if (filePath !== undefined) return /^https?:\/\//i.test(filePath) ? { url: filePath } : { path: filePath };
  return { text: text as string };
}

async function addDocument(args: AddDocumentArgs, context: ToolContext) {
  const { platform, scope, session } = context;
  const defaults = platform.settings.get().mcp;
  const options = {
    domain: args.domain ?? null,
    extract_entities: args.extract_entities ?? session.autoExtract ?? defaults.auto_extract,
    auto_confirm: args.auto_confirm ?? !defaults.confirmation_required_default,
    analysis_depth: args.extraction_depth ?? args.analysis_depth,
    skip_duplicates: args.skip_duplicates,
    enable_normalization: args.enable_normalization,
    enable_vision: args.enable_vision,
  };
  const service = await scope.service(sourcesModule);
  const origin = documentOrigin(args);
  const { source, duplicate } =
    'url' in origin
      ? { ...(await service.importUrl(origin.url, options, { title: args.title })), duplicate: false }
      : await service.createFromFile(
          'path' in origin
            ? await received(platform, await sandboxFile(platform.paths.root, origin.path), path.basename(origin.path))
            : await received(
                platform,
                { text: origin.text },
                `${(args.title ?? 'note').replace(/[^\w .-]+/g, '_').slice(0, 80)}.md`,
              ),
          options,
          args.title ? { sourceType: 'file', title: args.title } : undefined,
        );
  if (!args.wait) return { success: true, ...completion(await service.view(source)), duplicate };
  const until = options.extract_entities ? 'committed' : 'indexed';
  return { success: true, ...(await waitForSource(context, source.id, until, args.wait_timeout)), duplicate };
}

/** A document's outcome as agents read it: what it is, where it stands, what it put in the graph. */
function completion(source: SourceResponseBody) {
  return {
    ...sourceSummary(source),
    file_id: source.id,
    nodes_created: source.extraction_entities_count,
    edges_created: source.extraction_relationships_count,
  };
}

/** Polls a source until it settles for `until` (or parks, or fails) or the time is up. */
async function waitForSource(
  { scope }: ToolContext,
  sourceId: string,
  until: 'indexed' | 'committed',
  timeoutSeconds: number,
) {
  const sources = await scope.service(sourcesModule);
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const source = await sources.require(sourceId);
    const done = settled[until].includes(source.status);
    if (done || Date.now() >= deadline) {
      const progress = await sourceProgress(scope, sourceId);
      return { ...completion(await sources.view(source)), ...progress, timed_out: !done };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const AddDocument = Type.Object({
  file_path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 8192,
      description:
        'a file inside <data_dir>/mcp/, relative to it (no .., no hidden files, no links), or an http(s) URL to import',
    }),
  ),
  content: Type.Optional(
    Type.String({ minLength: 1, maxLength: 5_000_000, description: 'the document itself, as Markdown or plain text' }),
  ),
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Deprecated: use file_path' })),
  url: Type.Optional(
    Type.String({ minLength: 1, maxLength: 8192, description: 'an http(s) page to import (public addresses only)' }),
  ),
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 5_000_000, description: 'Deprecated: use content' })),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  domain: Type.Optional(Domain),
  extract_entities: Type.Optional(
    Type.Boolean({
      description:
        "true: the server's model extracts it; false: index only, to extract it yourself with get_extraction_tasks (default: the mcp.auto_extract setting, off unless the session was started with --server-extraction)",
    }),
  ),
  auto_confirm: Type.Optional(
    Type.Boolean({
      description:
        'true: extract without waiting for the detected domain to be confirmed (default: not mcp.confirmation_required_default)',
    }),
  ),
  extraction_depth: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('quick')])),
  analysis_depth: Type.Optional(
    Type.Union([Type.Literal('full'), Type.Literal('quick')], { description: 'Deprecated: use extraction_depth' }),
  ),
  enable_normalization: Type.Optional(Type.Boolean()),
  enable_vision: Type.Optional(Type.Boolean()),
  skip_duplicates: Type.Boolean({ default: false }),
  wait: Type.Boolean({
    default: true,
    description: 'true: answer once the document is in the graph (or indexed, when not extracted), parked or failed',
  }),
  wait_timeout: Type.Integer({ minimum: 1, maximum: 3600, default: 300, description: 'seconds to wait at most' }),
});
type AddDocumentArgs = typeof AddDocument.static;

export const documentTools = [
  tool({
    name: 'confirm_extraction',
    kind: 'write',
    description:
      'Confirm (or change) the domain of a document parked at awaiting_confirmation, optionally with other extraction options; its extraction then starts.',
    input: Type.Object({
      file_id: Type.String({ minLength: 1, description: 'the source id (get_document_status lists parked ones)' }),
      domain: Type.Optional(Domain),
      analysis_depth: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('quick')])),
      filtering_mode: Type.Optional(Type.Union(filteringModes.map((mode) => Type.Literal(mode)))),
      content_filtering: Type.Optional(Type.Boolean()),
      enable_direction_correction: Type.Optional(Type.Boolean()),
      protect_orphans: Type.Optional(Type.Boolean()),
      enable_inverse_relationships: Type.Optional(Type.Boolean()),
      max_entity_degree_override: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
    async run({ file_id, ...options }, { scope }) {
      const sources = await scope.service(sourcesModule);
      const source = await sources.require(file_id);
      if (source.status !== 'awaiting_confirmation')
        return {
          success: false,
          error_code: 'NOT_AWAITING_CONFIRMATION',
          error: `Source '${file_id}' is ${source.status}, not awaiting confirmation`,
          source_id: file_id,
          status: source.status,
        };
      const outcome = await sources.confirm(file_id, { ...options, domain: options.domain ?? null });
      return {
        success: true,
        source_id: file_id,
        domain: outcome.domain,
        status: outcome.status,
        message: outcome.message,
      };
    },
  }),
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
      'Wait until a document is indexed (searchable) or committed (in the graph), failed, or parked for confirmation; returns its outcome and progress.',
    input: Type.Object({
      file_id: Type.Optional(Type.String({ minLength: 1, description: 'the source id add_document returned' })),
      source_id: Type.Optional(Type.String({ minLength: 1, description: 'Deprecated: use file_id' })),
      until: Type.Union([Type.Literal('indexed'), Type.Literal('committed')], { default: 'committed' }),
      timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: 'seconds (default 300)' })),
      timeout_seconds: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 3600, description: 'Deprecated: use timeout' }),
      ),
    }),
    async run({ file_id, source_id, until, timeout, timeout_seconds }, context) {
      const id = file_id ?? source_id;
      if (id === undefined) throw BadInput.field('Give file_id, the source id add_document returned', 'file_id');
      return { success: true, ...(await waitForSource(context, id, until, timeout ?? timeout_seconds ?? 300)) };
    },
  }),
  tool({
    name: 'remove_document',
    kind: 'write',
    description: 'Delete a document with its chunks and its contribution to the graph.',
    input: Type.Object({ source_id: SourceId }),
    async run({ source_id }, { scope }) {
      await (await scope.service(sourcesModule)).delete(source_id);
      return { source_id, deleted: true };
    },
  }),
  deprecated(
    'confirm_extraction',
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
        return { source_id, confirmed: true, ...outcome };
      },
    }),
  ),
];
