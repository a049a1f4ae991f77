import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { SourceResponse } from './sources.ts';
import { TaskSummary } from './queue.ts';

export const eventTopics = ['sources', 'tasks'] as const;
export type EventTopic = (typeof eventTopics)[number];

const LaneCounts = Type.Object({ queue: Type.String(), queued: Type.Integer(), running: Type.Integer() });

/** One frame of GET /events: `data: <json>` where the JSON's `type` names the change. */
export const ChangeEvent = Type.Union([
  Type.Object({ type: Type.Literal('ready'), database: Type.String(), topics: Type.Array(Type.String()) }),
  Type.Object({ type: Type.Literal('database'), database: Type.String() }),
  Type.Object({ type: Type.Literal('source'), database: Type.String(), source: SourceResponse }),
  Type.Object({ type: Type.Literal('source_deleted'), database: Type.String(), source_id: Type.String() }),
  Type.Object({ type: Type.Literal('task'), task: TaskSummary }),
  Type.Object({ type: Type.Literal('lanes'), queues: Type.Array(LaneCounts) }),
]);
export type ChangeEventBody = Static<typeof ChangeEvent>;

export const eventEndpoints = {
  stream: endpoint({
    method: 'GET',
    path: '/events',
    tag: 'events',
    status: 200,
    errors: [422],
    produces: 'text/event-stream',
    query: Type.Object({
      topics: Type.Optional(
        Type.String({
          pattern: `^(${eventTopics.join('|')})(,(${eventTopics.join('|')}))*$`,
          description: `comma-separated: ${eventTopics.join(', ')} (default: all)`,
        }),
      ),
    }),
    summary:
      'Server-sent events of source and task changes: frames `data: {"type": …}` with types ready (on connect), database (the active database changed), ' +
      'source (a source changed; the full source), source_deleted, task (a task changed state), lanes (queued and running counts per queue changed)',
  }),
};
