import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageQuery, Timestamp } from './common.ts';

const tag = 'tools';

export const SystemToolSummary = Type.Object({
  id: Type.String(),
  category: Type.String(),
  name: Type.String(),
  description: Type.String(),
  version: Type.String(),
  is_active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SystemToolDetail = Type.Object({
  ...SystemToolSummary.properties,
  input_schema: AnyObject,
  output_schema: AnyObject,
});

export const UserToolResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  system_tool_id: Type.String(),
  configuration: AnyObject,
  tags: Nullable(Type.Array(Type.String())),
  is_active: Type.Boolean(),
  created_by: Type.Null(),
  created_at: Timestamp,
  updated_at: Timestamp,
  system_tool: SystemToolDetail,
});

export const ToolStatsResponse = Type.Object({
  tool_type: OneOf(['system', 'user']),
  tool_id: Type.String(),
  total_calls: Type.Integer(),
  successful_calls: Type.Integer(),
  failed_calls: Type.Integer(),
  avg_execution_ms: Type.Number(),
  last_called_at: Nullable(Timestamp),
  updated_at: Nullable(Timestamp),
});

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Tags = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }));

export const UserToolCreateBody = Body({
  name: Name,
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  system_tool_id: Type.String({ minLength: 1 }),
  configuration: AnyObject,
  tags: Type.Optional(Tags),
  is_active: Type.Optional(Type.Boolean({ default: true })),
});

export const UserToolUpdateBody = Body({
  name: Type.Optional(Name),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  configuration: Type.Optional(AnyObject),
  tags: Type.Optional(Tags),
  is_active: Type.Optional(Type.Boolean()),
});

const ToolId = Type.Object({ tool_id: Type.String({ minLength: 1 }) });

export const toolEndpoints = {
  systemList: endpoint({
    method: 'GET',
    path: '/tools/system',
    tag,
    status: 200,
    errors: [422],
    summary: 'The built-in system tools (bare array, no schemas)',
    query: Type.Object({ category: Type.Optional(Type.String()), is_active: Type.Optional(Type.Boolean()) }),
    response: Type.Array(SystemToolSummary),
  }),
  systemGet: endpoint({
    method: 'GET',
    path: '/tools/system/{tool_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One system tool with its input and output JSON schemas',
    params: ToolId,
    response: SystemToolDetail,
  }),
  list: endpoint({
    method: 'GET',
    path: '/tools',
    tag,
    status: 200,
    errors: [422],
    summary: 'User tools: configured instances of system tools',
    query: Type.Object({
      system_tool_id: Type.Optional(Type.String()),
      is_active: Type.Optional(Type.Boolean()),
      ...PageQuery,
    }),
    response: Page(UserToolResponse),
  }),
  create: endpoint({
    method: 'POST',
    path: '/tools',
    tag,
    status: 201,
    errors: [422],
    summary:
      "Create a user tool; its configuration is checked against the system tool's input schema (required fields may be left to the step)",
    body: UserToolCreateBody,
    response: UserToolResponse,
  }),
  get: endpoint({
    method: 'GET',
    path: '/tools/{tool_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One user tool',
    params: ToolId,
    response: UserToolResponse,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/tools/{tool_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Update a user tool; configuration and tags replace what was there',
    params: ToolId,
    body: UserToolUpdateBody,
    response: UserToolResponse,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/tools/{tool_id}',
    tag,
    status: 204,
    errors: [404],
    summary: 'Delete a user tool',
    params: ToolId,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/tools/stats/{tool_type}/{tool_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Call counts and durations of a tool (404 when it was never called)',
    params: Type.Object({ tool_type: OneOf(['system', 'user']), tool_id: Type.String({ minLength: 1 }) }),
    response: ToolStatsResponse,
  }),
};
