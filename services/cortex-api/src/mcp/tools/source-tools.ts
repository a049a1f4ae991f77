import { Type } from '@sinclair/typebox';
import { extractionModule } from '@rhizome/core/extraction';
import { sourcesModule, type ChunkView } from '@rhizome/core/sources';
import { sourceStatuses, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { RequestScope } from '../../http/request-scope.ts';
import { tool, type ToolContext } from '../tool.ts';

const SourceId = Type.String({ minLength: 1, description: 'a source id (from list_sources)' });

/** What an agent needs of a source: what it is, where it stands, what it holds. */
export function sourceSummary(source: {
  id: string;
  title: string | null;
  filename: string | null;
  source_type: string;
  status: string;
  enabled: boolean;
  chunk_count: number;
  extraction_domain: string | null;
  step_description?: string | null;
  error_message?: string | null;
  origin_url?: string | null;
  created_at: string;
}) {
  return {
    source_id: source.id,
    title: source.title,
    filename: source.filename,
    source_type: source.source_type,
    origin_url: source.origin_url ?? null,
    status: source.status,
    enabled: source.enabled,
    chunk_count: source.chunk_count,
    domain: source.extraction_domain,
    step: source.step_description ?? null,
    error: source.error_message ?? null,
    created_at: source.created_at,
  };
}

/** A source's state and its latest extraction run, from the same progress GET /sources/{id}/extraction answers. */
export async function sourceProgress(scope: RequestScope, sourceId: string) {
  const sources = await scope.service(sourcesModule);
  const [view] = await sources.views([await sources.require(sourceId)]);
  const run = await (await scope.service(extractionModule)).progress(sourceId);
  return {
    source: sourceSummary(view),
    extraction: run.has_extraction_job
      ? {
          job_id: run.job_id,
          status: run.status,
          domain: run.domain,
          total_groups: run.total_chunks,
          groups_by_status: run.chunks_by_status,
          progress_percent: run.progress_percent,
          entities: view.extraction_entities_count,
          relationships: view.extraction_relationships_count,
          error: run.error_message,
        }
      : null,
  };
}

/** The most recent sources get_document_status lists. */
const documentStatusLimit = 200;

/** A source's place in the pipeline; one parked at the confirmation gate also says what was detected. */
function documentStatus(source: SourceResponseBody, readOnly: boolean) {
  const status = {
    id: source.id,
    filename: source.filename,
    title: source.title,
    status: source.status,
    stage_progress: {
      step: source.current_step,
      description: source.step_description,
      indexing: { total: source.chunk_count, processed: source.embedded_chunk_count },
      extraction: { entities: source.extraction_entities_count, relationships: source.extraction_relationships_count },
    },
  };
  if (source.status !== 'awaiting_confirmation') return status;
  const proposal = source.detection_proposal as Partial<DetectionProposalBody> | null;
  return {
    ...status,
    file_id: source.id,
    detected_domain: proposal?.detected_domain ?? source.extraction_domain,
    confidence: proposal?.confidence ?? null,
    low_confidence: proposal?.low_confidence ?? null,
    confirmation_required: true,
    ...(readOnly && {
      confirm_hint: `Confirm it in write mode with confirm_extraction {"file_id": "${source.id}"}, or POST /api/v1/sources/${source.id}/confirm`,
    }),
  };
}

interface DetectionProposalBody {
  detected_domain: string;
  confidence: number;
  low_confidence: boolean;
}

export const sourceTools = [
  tool({
    name: 'get_document_status',
    kind: 'read',
    description:
      'Where every document stands (newest first): status and stage progress; a document waiting for its domain to be confirmed also says what was detected.',
    input: Type.Object({}),
    async run(_args, { platform, scope }: ToolContext) {
      const sources = await scope.service(sourcesModule);
      const { rows, total } = await sources.list({}, { offset: 0, limit: documentStatusLimit });
      const readOnly = platform.settings.get().mcp.mode !== 'write';
      const documents = (await sources.views(rows)).map((source) => documentStatus(source, readOnly));
      return { success: true, documents, total };
    },
  }),
  tool({
    name: 'list_sources',
    kind: 'read',
    description:
      'The documents in the knowledge base with their status (indexed, extracting, committed, error …), optionally filtered by status or title.',
    input: Type.Object({
      status: Type.Optional(Type.Union(sourceStatuses.map((status) => Type.Literal(status)))),
      search: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'words in the title or filename' }),
      ),
      page: Type.Integer({ minimum: 1, default: 1 }),
      page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    }),
    async run({ status, search, page, page_size }, { scope }) {
      const sources = await scope.service(sourcesModule);
      const { rows, total } = await sources.list(
        { status, search },
        { offset: (page - 1) * page_size, limit: page_size },
      );
      const views = await sources.views(rows);
      return { sources: views.map(sourceSummary), total, page, page_size };
    },
  }),
  tool({
    name: 'source_progress',
    kind: 'read',
    description:
      "Where a source stands: its status and step, and its extraction run's groups done, entities and relationships so far.",
    input: Type.Object({ source_id: SourceId }),
    async run({ source_id }, { scope }) {
      return sourceProgress(scope, source_id);
    },
  }),
  tool({
    name: 'get_chunk',
    kind: 'read',
    description:
      'Read a passage by chunk id with the passages before and after it, to quote a citation in its context.',
    input: Type.Object({
      chunk_id: Type.String({ minLength: 1 }),
      neighbours: Type.Integer({ minimum: 0, maximum: 5, default: 1, description: 'chunks to include on each side' }),
    }),
    async run({ chunk_id, neighbours }, { scope }) {
      const { chunk, source, before, after } = await (
        await scope.service(sourcesModule)
      ).chunkInContext(chunk_id, neighbours);
      const view = (row: ChunkView) => ({
        chunk_id: row.id,
        chunk_index: row.chunk_index,
        page: row.page_number,
        section: row.section,
        text: row.content,
      });
      return { source_id: chunk.source_id, source, ...view(chunk), before: before.map(view), after: after.map(view) };
    },
  }),
];
