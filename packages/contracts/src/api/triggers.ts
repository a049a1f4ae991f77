import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageNumber, Timestamp } from './common.ts';

const tag = 'triggers';

export const TriggerSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  event_source: Type.String(),
  workflow_id: Type.String(),
  enabled: Type.Boolean(),
  priority: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const TriggerResponse = Type.Object({
  ...TriggerSummary.properties,
  filters: AnyObject,
  workflow_inputs: Nullable(AnyObject),
});
export type TriggerResponseBody = Static<typeof TriggerResponse>;

export const TriggerStatsResponse = Type.Object({
  total_executions: Type.Integer(),
  successful_executions: Type.Integer(),
  failed_executions: Type.Integer(),
  success_rate: Type.Number(),
  average_duration_ms: Type.Integer(),
});

const EventSource = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description:
    'any name; the system emits node.create and edge.create, any other (e.g. webhook) waits for POST /triggers/{trigger_id}/fire',
});
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const TriggerCreateBody = Body({
  name: Name,
  event_source: EventSource,
  filters: AnyObject,
  workflow_id: Type.String({ minLength: 1 }),
  workflow_inputs: Type.Optional(Nullable(AnyObject)),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  priority: Type.Optional(Type.Integer({ default: 0, description: 'lower executes first' })),
});

export const TriggerUpdateBody = Body({
  name: Type.Optional(Name),
  event_source: Type.Optional(EventSource),
  filters: Type.Optional(AnyObject),
  workflow_id: Type.Optional(Type.String({ minLength: 1 })),
  workflow_inputs: Type.Optional(Nullable(AnyObject)),
  enabled: Type.Optional(Type.Boolean()),
  priority: Type.Optional(Type.Integer()),
});

/** A trigger as a knowledge package carries it (`triggers` of workflows.jsonld): TriggerResponse's fields, other fields ignored. */
export const PortableTrigger = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Name,
  event_source: EventSource,
  filters: Type.Optional(AnyObject),
  workflow_id: Type.String({ minLength: 1 }),
  workflow_inputs: Type.Optional(Nullable(AnyObject)),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  priority: Type.Optional(Type.Integer({ default: 0 })),
});

const TriggerId = Type.Object({ trigger_id: Type.String({ minLength: 1 }) });

export const TriggerFired = Type.Object({
  trigger_id: Type.String(),
  fired: Type.Boolean({ description: "false when the payload does not match the trigger's filters" }),
  execution_id: Nullable(Type.String()),
  task_id: Nullable(Type.String()),
  status: OneOf(['queued', 'skipped'] as const),
  message: Type.String(),
});

export const triggerEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/triggers',
    tag,
    status: 200,
    errors: [422],
    summary: 'Event triggers, lower priority first',
    query: Type.Object({
      page: Type.Optional(PageNumber),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
      event_source: Type.Optional(Type.String()),
      enabled: Type.Optional(Type.Boolean()),
    }),
    response: Page(TriggerSummary),
  }),
  get: endpoint({
    method: 'GET',
    path: '/triggers/{trigger_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One trigger',
    params: TriggerId,
    response: TriggerResponse,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/triggers/{trigger_id}/stats',
    tag,
    status: 200,
    errors: [404],
    summary: 'Executions the trigger started, by outcome, with their average duration',
    params: TriggerId,
    response: TriggerStatsResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/triggers',
    tag,
    status: 201,
    errors: [422],
    summary: 'Create a trigger: an event source that starts a workflow',
    body: TriggerCreateBody,
    response: TriggerResponse,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/triggers/{trigger_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Update a trigger; filters and workflow_inputs replace what was there',
    params: TriggerId,
    body: TriggerUpdateBody,
    response: TriggerResponse,
  }),
  fire: endpoint({
    method: 'POST',
    path: '/triggers/{trigger_id}/fire',
    tag,
    status: 202,
    errors: [404, 409, 422],
    summary:
      "Fire the trigger from outside (a webhook): the JSON body is the event payload; when it matches the filters the workflow runs with the payload and the trigger's workflow_inputs as inputs",
    params: TriggerId,
    body: AnyObject,
    response: TriggerFired,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/triggers/{trigger_id}',
    tag,
    status: 204,
    errors: [400, 404],
    summary: 'Delete a trigger (system triggers are disabled instead)',
    params: TriggerId,
  }),
};
