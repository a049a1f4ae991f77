import { Type } from '@sinclair/typebox';
import { extractionModule } from '@rhizome/core/extraction';
import { sourcesModule } from '@rhizome/core/sources';
import type { Db } from '@rhizome/core/storage';
import { NotFound } from '@rhizome/contracts/errors';
import { sourceStatuses } from '@rhizome/contracts/api/sources';
import type { RequestScope } from '../../http/request-scope.ts';
import { tool } from '../tool.ts';

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

/** A source's state and its latest extraction run, as the REST progress endpoint counts it. */
export async function sourceProgress(scope: RequestScope, sourceId: string) {
  const sources = await scope.service(sourcesModule);
  const [view] = await sources.views([await sources.require(sourceId)]);
  const extraction = await scope.service(extractionModule);
  const job = await extraction.job(sourceId);
  const groups = job ? await extraction.counts(job) : null;
  return {
    source: sourceSummary(view),
    extraction:
      job && groups
        ? {
            job_id: job.id,
            status: job.status,
            domain: job.domain,
            total_groups: job.total_groups,
            groups_by_status: groups,
            progress_percent: job.total_groups
              ? Math.round((1000 * (groups.completed + groups.failed + groups.cancelled)) / job.total_groups) / 10
              : 100,
            entities: view.extraction_entities_count,
            relationships: view.extraction_relationships_count,
            error: job.error_message,
          }
        : null,
  };
}

interface ChunkRow {
  id: string;
  source_id: string;
  chunk_index: number;
  content: string;
  page_number: number | null;
  section: string | null;
}

async function chunkAt(db: Db, where: Record<string, string | number>): Promise<ChunkRow | undefined> {
  return (await db('document_chunks')
    .where(where)
    .first('id', 'source_id', 'chunk_index', 'content', 'page_number', 'section')) as ChunkRow | undefined;
}

export const sourceTools = [
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
      const { db } = await scope.database();
      const chunk = await chunkAt(db, { id: chunk_id });
      if (!chunk) throw NotFound.resource('Chunk', chunk_id);
      const around = (await db('document_chunks')
        .where({ source_id: chunk.source_id })
        .whereBetween('chunk_index', [chunk.chunk_index - neighbours, chunk.chunk_index + neighbours])
        .whereNot({ id: chunk.id })
        .orderBy('chunk_index')
        .select('id', 'source_id', 'chunk_index', 'content', 'page_number', 'section')) as ChunkRow[];
      const source = (await db('sources').where({ id: chunk.source_id }).first('title', 'filename')) as
        { title: string | null; filename: string | null } | undefined;
      const view = (row: ChunkRow) => ({
        chunk_id: row.id,
        chunk_index: row.chunk_index,
        page: row.page_number,
        section: row.section,
        text: row.content,
      });
      return {
        source_id: chunk.source_id,
        source: source?.title ?? source?.filename ?? null,
        ...view(chunk),
        before: around.filter((row) => row.chunk_index < chunk.chunk_index).map(view),
        after: around.filter((row) => row.chunk_index > chunk.chunk_index).map(view),
      };
    },
  }),
];
