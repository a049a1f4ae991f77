import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, OneOf } from './common.ts';

const tag = 'settings';
const CloudEmbeddingModel = Type.Object({
  name: Type.String(),
  model: Type.String(),
  dimensions: Type.Integer(),
  mrl: Type.Boolean(),
  current: Type.Boolean(),
});
/** A finished reset: `{success: true, data: {status: "completed", …counts}}`. */
function Completed<T extends Parameters<typeof Type.Object>[0]>(counts: T) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Object({ status: Type.Literal('completed'), ...counts }),
  });
}
/** A reset queued as a task of the operations lane. */
function QueuedReset<T extends string>(operationType: T) {
  return Type.Object({
    task_id: Type.String(),
    status: Type.Literal('queued'),
    operation_type: Type.Literal(operationType),
    message: Type.String(),
  });
}
const Level = OneOf(['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL']);

export const settingsEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/settings',
    tag,
    status: 200,
    summary: 'Every settings group; secrets masked',
    response: AnyObject,
  }),
  patch: endpoint({
    method: 'PATCH',
    path: '/settings',
    tag,
    status: 200,
    errors: [422],
    summary: 'Deep-merge changes per group; validated, persisted, hot-reloaded by every process',
    body: Type.Object({}, { additionalProperties: true }),
    response: Type.Object({
      settings: AnyObject,
      warnings: Type.Array(Type.Object({ field: Type.String(), message: Type.String(), severity: Type.String() })),
    }),
  }),
  reset: endpoint({
    method: 'POST',
    path: '/settings/reset',
    tag,
    status: 200,
    summary: 'Overwrite the settings file with the defaults',
    response: AnyObject,
  }),
  embeddingModels: endpoint({
    method: 'GET',
    path: '/settings/embedding/models',
    tag,
    status: 200,
    summary:
      'Embedding models to choose from: curated (builtin and local-server models) and hosted, with their dimensions; ' +
      'a model whose dimensions differ from current.vector_dimensions needs a re-embed (POST /search/indexes)',
    response: Type.Object({
      curated: Type.Array(
        Type.Object({
          name: Type.String(),
          local: Type.Boolean(),
          ollama: Type.Boolean(),
          dimensions: Type.Integer(),
          mrl: Type.Boolean(),
          default: Type.Boolean(),
          current: Type.Boolean(),
        }),
      ),
      cloud: Type.Record(Type.String(), Type.Array(CloudEmbeddingModel)),
      current: Type.Object({ provider: Type.String(), model: Type.String(), vector_dimensions: Type.Integer() }),
    }),
  }),
  resetChats: endpoint({
    method: 'POST',
    path: '/settings/reset/chats',
    tag,
    status: 200,
    summary: 'Delete every chat and message of the current database (irreversible)',
    response: Completed({ chats_deleted: Type.Integer() }),
  }),
  resetWorkflows: endpoint({
    method: 'POST',
    path: '/settings/reset/workflows',
    tag,
    status: 200,
    summary:
      'Delete every workflow with its steps and executions, every trigger and user tool, and seed the system workflow and trigger again',
    response: Completed({
      workflows_deleted: Type.Integer(),
      workflow_executions_deleted: Type.Integer(),
      user_tools_deleted: Type.Integer(),
      triggers_deleted: Type.Integer(),
      trigger_executions_deleted: Type.Integer(),
      workflows_created: Type.Integer(),
      system_tools_created: Type.Integer(),
      triggers_created: Type.Integer(),
    }),
  }),
  resetQueue: endpoint({
    method: 'POST',
    path: '/settings/reset/queue',
    tag,
    status: 200,
    summary:
      'Cancel every queued and running task, then remove every finished one with its result (queue statistics start anew)',
    response: Completed({ tasks_cancelled: Type.Integer(), tasks_deleted: Type.Integer() }),
  }),
  resetSourceProcessing: endpoint({
    method: 'POST',
    path: '/settings/reset/source_processing',
    tag,
    status: 200,
    errors: [409],
    summary:
      'Delete the processing state: every extraction run with its staged groups, the per-chunk attempts and the recovery ' +
      'events; staged sources return to indexed. Sources, chunks, vectors, the graph and its citations stay. ' +
      '409 while a source is being processed',
    response: Completed({
      extraction_jobs_deleted: Type.Integer(),
      staged_groups_deleted: Type.Integer(),
      extraction_attempts_deleted: Type.Integer(),
      recovery_events_deleted: Type.Integer(),
      sources_reset: Type.Integer(),
    }),
  }),
  resetKnowledge: endpoint({
    method: 'POST',
    path: '/settings/reset/knowledge',
    tag,
    status: 202,
    errors: [409, 503],
    summary:
      'Queue the wipe of the knowledge: sources with their files, chunks and vectors, the graph, citations, the processing ' +
      'state, and the search indexes rebuilt; templates, custom domains, chats, workflows and settings stay. ' +
      '409 while a source is being processed; the task result counts what went',
    response: QueuedReset('knowledge_reset'),
  }),
  resetAll: endpoint({
    method: 'POST',
    path: '/settings/reset/all',
    tag,
    status: 202,
    errors: [400, 409, 422, 503],
    summary:
      'Queue the reset of everything in the database: the knowledge, templates but the system ones, custom domains, ' +
      'chats and workflows (the system workflow and trigger are seeded again). Settings and the account stay. ' +
      'Needs {confirmation: "CONFIRM"} (400 otherwise); 409 while a source is being processed (details.code ' +
      'SOURCES_PROCESSING with source_ids), and 409 while a chat is being answered or a workflow run is queued or ' +
      'running (details.code TASKS_RUNNING with chat_ids and execution_ids)',
    body: Body({ confirmation: Type.String() }),
    response: QueuedReset('full_reset'),
  }),
  cleanupOrphans: endpoint({
    method: 'POST',
    path: '/settings/cleanup/orphans',
    tag,
    status: 202,
    errors: [503],
    summary:
      'Queue the removal of dangling edges (an endpoint or template gone) and nodes whose template is gone; task result {nodes_removed, edges_removed}',
    response: Type.Object({
      task_id: Type.String(),
      status: Type.Literal('queued'),
      operation_type: Type.Literal('graph_cleanup'),
      message: Type.String(),
    }),
  }),
  getLogLevel: endpoint({
    method: 'GET',
    path: '/settings/logging/level',
    tag,
    status: 200,
    summary: 'The current logging level',
    response: Type.Object({
      level: Type.String(),
      numeric_level: Type.Integer(),
      available_levels: Type.Array(Type.String()),
    }),
  }),
  setLogLevel: endpoint({
    method: 'POST',
    path: '/settings/logging/level',
    tag,
    status: 200,
    errors: [422],
    summary: 'Change the logging level of every process without a restart',
    body: Body({ level: Level }),
    response: Type.Object({
      success: Type.Boolean(),
      old_level: Type.String(),
      new_level: Type.String(),
      message: Type.String(),
    }),
  }),
};

/**
 * Operator endpoints of the system this API was modelled on that Rhizome serves elsewhere: each answers 404
 * with a message naming the Rhizome endpoint that does the job, so a script fails with a pointer.
 */
export const movedOperatorEndpoints = (
  [
    ['POST', '/sources/cleanup/orphan_tasks', 'POST /queue/reconcile'],
    ['POST', '/settings/seed/templates', 'POST /templates/batch (a new database starts with the default templates)'],
  ] as const
).map(([method, path, instead]) => ({
  instead,
  endpoint: endpoint({ method, path, tag, status: 404, errors: [404], summary: `Not served here: use ${instead}` }),
}));
