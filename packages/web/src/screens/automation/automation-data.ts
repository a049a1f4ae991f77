import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { triggerEndpoints } from '@rhizome/contracts/api/triggers';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';

export type Workflow = ResponseOf<typeof workflowEndpoints.list>['data'][number];
export type WorkflowDetail = ResponseOf<typeof workflowEndpoints.get>;
export type Step = WorkflowDetail['steps'][number];
export type Execution = ResponseOf<typeof workflowEndpoints.allExecutions>['data'][number];
export type ExecutionDetail = ResponseOf<typeof workflowEndpoints.execution>;
export type SystemTool = ResponseOf<typeof toolEndpoints.systemList>[number];
export type SystemToolDetail = ResponseOf<typeof toolEndpoints.systemGet>;
export type UserTool = ResponseOf<typeof toolEndpoints.get>;
export type Trigger = ResponseOf<typeof triggerEndpoints.get>;
export type TriggerSummary = ResponseOf<typeof triggerEndpoints.list>['data'][number];

export const executionStatusColors: Record<string, string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'orange',
  skipped: 'gray',
};

const builtInEventNames: Record<string, string> = {
  'node.create': 'when a node is created',
  'edge.create': 'when an edge is created',
};

/** The name the system gives events when nodes or edges are created (other names wait for "fire"). */
export const builtInEvents = Object.keys(builtInEventNames);

/** When a trigger fires, in words: the graph's own events by meaning, other events by the name they are fired with. */
export const eventLabel = (source: string) => builtInEventNames[source] ?? `when “${source}” is fired`;

/** A duration the way a person reads it: 840 ms, 3.2 s, 4 min 10 s. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Parses JSON typed in a form: the value, or the message to show next to the field. */
export function parseJsonField(
  text: string,
  what: string,
  fallback: unknown = undefined,
): { value: unknown } | { error: string } {
  if (!text.trim()) return fallback === undefined ? { error: `Enter ${what} as JSON` } : { value: fallback };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: `${what[0].toUpperCase()}${what.slice(1)} is not valid JSON` };
  }
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A success rate (0 to 1) as a percentage. */
export const formatRate = (rate: number) => `${Math.round(rate * 100)}%`;
