import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, OneOf, Pagination, PageNumber } from './common.ts';

const tag = 'queue';
const QueueName = Type.Union([Type.Literal('operations'), Type.Literal('llm')]);
const TaskId = Type.Object({ task_id: Type.String() });
const QueueParam = Type.Object({ queue: Type.Optional(QueueName) });

export const TaskSummary = Type.Object({
  task_id: Type.String(),
  queue: Type.String(),
  operation: Type.String(),
  status: OneOf(['queued', 'running', 'completed', 'failed', 'cancelled']),
  priority: Type.Integer(),
  data: AnyObject,
  metadata: AnyObject,
  attempts: Type.Integer(),
  created_at: Nullable(Type.String()),
  started_at: Nullable(Type.String()),
  completed_at: Nullable(Type.String()),
});
export const TaskDetail = Type.Intersect([
  TaskSummary,
  Type.Object({ error: Nullable(Type.String()), error_type: Nullable(Type.String()) }),
]);
const LaneStats = Type.Object({
  queue: Type.String(),
  queued: Type.Integer(),
  running: Type.Integer(),
  completed_recent: Type.Integer(),
  failed_recent: Type.Integer(),
  workers: Type.Integer(),
});
export const QueueStats = Type.Object({ queues: Type.Array(LaneStats), note: Type.String() });

export const queueEndpoints = {
  submit: endpoint({
    method: 'POST',
    path: '/queue/tasks',
    tag,
    status: 201,
    errors: [422, 503],
    summary: 'Queue a task',
    body: Body({
      queue: QueueName,
      operation: Type.String({ minLength: 1, maxLength: 200 }),
      data: AnyObject,
      priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 50 })),
      metadata: Type.Optional(AnyObject),
    }),
    response: TaskId,
  }),
  list: endpoint({
    method: 'GET',
    path: '/queue/tasks',
    tag,
    status: 200,
    errors: [422, 503],
    summary: 'Tasks, newest first',
    query: Type.Object({
      page: Type.Optional(PageNumber),
      page_size: Type.Optional(Type.Integer({ minimum: 1, default: 50 })),
      queues: Type.Optional(Type.String({ description: 'comma-separated queue names' })),
    }),
    response: Type.Object({
      data: Type.Array(TaskSummary),
      pagination: Pagination,
      total_in_queue: Type.Integer(),
      queues: Nullable(Type.Array(Type.String())),
    }),
  }),
  get: endpoint({
    method: 'GET',
    path: '/queue/tasks/{task_id}',
    tag,
    status: 200,
    errors: [404, 503],
    summary: 'One task',
    params: TaskId,
    response: TaskDetail,
  }),
  result: endpoint({
    method: 'GET',
    path: '/queue/tasks/{task_id}/result',
    tag,
    status: 200,
    errors: [404, 503],
    params: TaskId,
    summary: 'The result of a completed task while it is retained (operations 2 h, llm 1 h by default)',
    response: Type.Object({ result: Type.Unknown() }),
  }),
  cancel: endpoint({
    method: 'DELETE',
    path: '/queue/tasks/{task_id}',
    tag,
    status: 200,
    errors: [400, 404, 503],
    params: TaskId,
    summary: 'Cancel a queued or running task',
    response: Type.Object({ status: Type.Literal('cancelled') }),
  }),
  retry: endpoint({
    method: 'POST',
    path: '/queue/tasks/{task_id}/retry',
    tag,
    status: 200,
    errors: [400, 404, 503],
    params: TaskId,
    summary: 'Queue a failed task again as a new task',
    response: Type.Object({ new_task_id: Type.String(), original_task_id: Type.String() }),
  }),
  cancelAll: endpoint({
    method: 'DELETE',
    path: '/queue/tasks',
    tag,
    status: 200,
    errors: [422, 503],
    query: QueueParam,
    summary: 'Cancel every queued and running task (of one queue)',
    response: Type.Object({ cancelled: Type.Integer(), queue: Nullable(Type.String()) }),
  }),
  cancelMany: endpoint({
    method: 'POST',
    path: '/queue/tasks/cancel',
    tag,
    status: 200,
    errors: [400, 422, 503],
    summary: 'Cancel tasks by id (batch mode) or by metadata (metadata mode)',
    body: Body({
      task_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
      metadata: Type.Optional(AnyObject),
      queue: Type.Optional(QueueName),
    }),
    response: Type.Union([
      Type.Object({
        cancelled_count: Type.Integer(),
        requested_count: Type.Integer(),
        failed: Type.Array(Type.Object({ task_id: Type.String(), reason: Type.String() })),
      }),
      Type.Object({ cancelled: Type.Integer() }),
    ]),
  }),
  clearHistory: endpoint({
    method: 'DELETE',
    path: '/queue/tasks/history',
    tag,
    status: 200,
    errors: [422, 503],
    summary: 'Remove completed, failed and cancelled tasks',
    query: Type.Object({
      queue: Type.Optional(QueueName),
      older_than_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 8760, default: 0 })),
    }),
    response: Type.Object({ cleared: Type.Integer(), queue: Nullable(Type.String()) }),
  }),
  stats: endpoint({
    method: 'GET',
    path: '/queue/stats',
    tag,
    status: 200,
    summary: 'Queued, running and workers per queue',
    response: QueueStats,
  }),
  laneStats: endpoint({
    method: 'GET',
    path: '/queue/stats/{queue_name}',
    tag,
    status: 200,
    errors: [404, 503],
    summary: 'One queue',
    params: Type.Object({ queue_name: Type.String() }),
    response: LaneStats,
  }),
  health: endpoint({
    method: 'GET',
    path: '/queue/health',
    tag,
    status: 200,
    summary: 'Whether the queue store answers',
    response: Type.Object({
      status: Type.String(),
      enabled: Type.Boolean(),
      connected: Type.Boolean(),
      system: Type.String(),
      note: Type.String(),
    }),
  }),
  reconcile: endpoint({
    method: 'POST',
    path: '/queue/reconcile',
    tag,
    status: 200,
    errors: [422, 503],
    summary: 'Requeue or fail tasks abandoned by crashed workers; remove orphans',
    body: Body({ queue: Type.Optional(Nullable(QueueName)) }),
    response: Type.Object({
      recovered_orphans: Type.Integer(),
      recovered_crashed: Type.Integer(),
      failed_unrecoverable: Type.Integer(),
    }),
  }),
};

const Reason = Type.Optional(Nullable(Type.String({ maxLength: 500 })));
const EventType = Type.Union([
  Type.Literal('pause'),
  Type.Literal('resume'),
  Type.Literal('health_change'),
  Type.Literal('task_failed'),
  Type.Literal('recovery'),
]);

export const processingEndpoints = {
  pause: endpoint({
    method: 'POST',
    path: '/system/processing/pause',
    tag: 'processing',
    status: 200,
    errors: [422],
    summary: 'Pause processing: no new extraction or indexing task starts; running ones finish',
    body: Body({ reason: Reason }),
    response: Type.Object({ paused: Type.Literal(true) }),
  }),
  resume: endpoint({
    method: 'POST',
    path: '/system/processing/resume',
    tag: 'processing',
    status: 200,
    summary: 'Resume processing',
    response: Type.Object({ paused: Type.Literal(false) }),
  }),
  status: endpoint({
    method: 'GET',
    path: '/system/processing/status',
    tag: 'processing',
    status: 200,
    summary: 'Whether processing is paused',
    response: Type.Object({
      paused: Type.Boolean(),
      paused_at: Nullable(Type.String()),
      reason: Nullable(Type.String()),
    }),
  }),
  events: endpoint({
    method: 'GET',
    path: '/system/processing/events',
    tag: 'processing',
    status: 200,
    errors: [422],
    summary: 'The system event log, newest first',
    query: Type.Object({
      event_type: Type.Optional(EventType),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    }),
    response: Type.Array(
      Type.Object({
        id: Type.Integer(),
        timestamp: Nullable(Type.String()),
        type: Nullable(Type.String()),
        action: Nullable(Type.String()),
        source: Nullable(Type.String()),
        reason: Nullable(Type.String()),
        details: Nullable(AnyObject),
        database_name: Nullable(Type.String()),
      }),
    ),
  }),
  clearEvents: endpoint({
    method: 'DELETE',
    path: '/system/processing/events',
    tag: 'processing',
    status: 200,
    summary: 'Clear the system event log',
    response: Type.Object({ deleted: Type.Integer() }),
  }),
};

const SourceId = Type.Object({ source_id: Type.String({ minLength: 1 }) });
const SourceIds = Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 500 });

export const sourcePauseEndpoints = {
  pause: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/pause',
    tag: 'sources',
    status: 200,
    errors: [422],
    summary: 'Pause one source: none of its tasks starts until it is resumed',
    params: SourceId,
    body: Body({ reason: Reason }),
    response: Type.Object({ source_id: Type.String(), paused: Type.Literal(true) }),
  }),
  resume: endpoint({
    method: 'POST',
    path: '/sources/{source_id}/resume',
    tag: 'sources',
    status: 200,
    summary: 'Resume one source',
    params: SourceId,
    response: Type.Object({ source_id: Type.String(), paused: Type.Literal(false) }),
  }),
  pauseMany: endpoint({
    method: 'POST',
    path: '/sources/pause',
    tag: 'sources',
    status: 200,
    errors: [422],
    summary: 'Pause 1-500 sources',
    body: Body({ source_ids: SourceIds, reason: Reason }),
    response: Type.Object({ count: Type.Integer() }),
  }),
  resumeMany: endpoint({
    method: 'POST',
    path: '/sources/resume',
    tag: 'sources',
    status: 200,
    errors: [422],
    summary: 'Resume 1-500 sources',
    body: Body({ source_ids: SourceIds }),
    response: Type.Object({ count: Type.Integer() }),
  }),
};
