import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Nullable, QueuedTask } from './common.ts';

const tag = 'exports';
const Flag = (fallback: boolean, description: string) =>
  Type.Optional(Type.Boolean({ default: fallback, description }));

const ExportQuery = Type.Object({
  include_templates: Flag(true, 'non-system templates'),
  include_knowledge: Flag(true, 'nodes and edges'),
  include_workflows: Flag(true, 'workflow definitions'),
  include_sources: Flag(true, 'sources with their chunks, citations and tags'),
  include_embeddings: Flag(false, 'node and chunk vectors of the configured embedder'),
});

const BySourcesQuery = Type.Object({
  include_templates: Flag(true, 'templates the exported items use or the sources brought'),
  include_embeddings: Flag(false, 'node and chunk vectors of the configured embedder'),
});

// No schema default: whether the client gave a value, in the form or the query, decides (docs/api-conventions.md#ccx-packages).
const ImportForm = Type.Object({
  merge: Type.Optional(
    Type.Boolean({
      description:
        "true adds alongside; false replaces the database's graph, sources and workflows, after a safety backup. " +
        'In the form, the query or both (the same value; differing values are 422); given nowhere, the import replaces',
    }),
  ),
});

/** The result of an export task (GET /queue/tasks/{task_id}/result). */
export const ExportResultSchema = Type.Object({
  filename: Type.String(),
  content: Nullable(
    Type.String({ description: 'the whole .ccx as standard base64; null above 32 MiB (use download_url)' }),
  ),
  size_bytes: Type.Integer(),
  download_url: Type.String(),
  package_type: Type.Array(Type.String()),
  counts: Type.Record(Type.String(), Type.Integer()),
});
export type ExportResult = Static<typeof ExportResultSchema>;

export const exportEndpoints = {
  exportAll: endpoint({
    method: 'POST',
    path: '/exports',
    tag,
    status: 202,
    errors: [422],
    summary: 'Export the active database as a CCX 2.0 package (a task; its result holds the package)',
    query: ExportQuery,
    response: QueuedTask,
  }),
  exportBySources: endpoint({
    method: 'POST',
    path: '/exports/by_sources',
    tag,
    status: 202,
    errors: [404, 422],
    summary:
      'Export the entities cited by these sources, the edges between them, their templates, and the sources with chunks, citations and tags',
    body: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'source ids' }),
    query: BySourcesQuery,
    response: QueuedTask,
  }),
  import: endpoint({
    method: 'POST',
    path: '/exports/import',
    tag,
    status: 202,
    errors: [400, 413, 422, 503],
    consumes: 'multipart/form-data',
    files: { field: 'file', multiple: false },
    summary:
      'Import a .ccx package (CCX 2.0, or a CCX 3.0 container): checked completely before it is queued; an invalid package is refused with 400',
    body: ImportForm,
    query: ImportForm,
    response: QueuedTask,
  }),
  download: endpoint({
    method: 'GET',
    path: '/exports/{task_id}/download',
    tag,
    status: 200,
    errors: [404, 409],
    produces: 'application/zip',
    summary: 'Download the package an export task wrote',
    params: Type.Object({ task_id: Type.String() }),
  }),
};
