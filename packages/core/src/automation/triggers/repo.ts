import { BadInput, Invalid, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { bool, fromJson, newId, now, toJson, type Flag } from '../rows.ts';

export interface TriggerRow {
  id: string;
  name: string;
  event_source: string;
  filters: string;
  workflow_id: string;
  workflow_inputs: string | null;
  enabled: Flag;
  priority: number;
  is_system: Flag;
  created_at: string;
  updated_at: string;
}

export interface TriggerInput {
  name: string;
  event_source: string;
  filters: Record<string, unknown>;
  workflow_id: string;
  workflow_inputs?: Record<string, unknown> | null;
  enabled?: boolean;
  priority?: number;
}

export type TriggerPatch = Partial<TriggerInput>;

export function toTrigger(row: TriggerRow) {
  return {
    id: row.id,
    name: row.name,
    event_source: row.event_source,
    filters: fromJson<Record<string, unknown>>(row.filters, {}),
    workflow_id: row.workflow_id,
    workflow_inputs: fromJson<Record<string, unknown> | null>(row.workflow_inputs, null),
    enabled: bool(row.enabled),
    priority: row.priority,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toTriggerSummary(row: TriggerRow) {
  const { filters: _filters, workflow_inputs: _inputs, ...summary } = toTrigger(row);
  return summary;
}

export async function requireTriggerRow(db: Db, id: string): Promise<TriggerRow> {
  const row = await db('triggers').where({ id }).first();
  if (!row) throw NotFound.resource('trigger', id);
  return row;
}

async function requireWorkflowFor(db: Db, workflowId: string): Promise<void> {
  if (!(await db('workflows').where({ id: workflowId }).first('id'))) {
    throw new Invalid(
      [{ loc: ['body', 'workflow_id'], msg: `workflow '${workflowId}' not found`, type: 'value_error' }],
      `workflow '${workflowId}' not found`,
    );
  }
}

export async function listTriggers(
  db: Db,
  filter: { eventSource?: string; enabled?: boolean; workflowId?: string },
  window: { offset: number; limit: number },
) {
  const query = db('triggers');
  if (filter.eventSource !== undefined) query.where({ event_source: filter.eventSource });
  if (filter.enabled !== undefined) query.where({ enabled: filter.enabled });
  if (filter.workflowId !== undefined) query.where({ workflow_id: filter.workflowId });
  const [{ n }] = await query.clone().count({ n: '*' });
  const rows = await query
    .orderBy([{ column: 'priority' }, { column: 'created_at' }, { column: 'id' }])
    .offset(window.offset)
    .limit(window.limit);
  return { rows, total: Number(n) };
}

export async function createTrigger(
  db: Db,
  input: TriggerInput,
  options: { id?: string; isSystem?: boolean } = {},
): Promise<TriggerRow> {
  await requireWorkflowFor(db, input.workflow_id);
  const at = now();
  const row: TriggerRow = {
    id: options.id ?? newId('trg'),
    name: input.name,
    event_source: input.event_source,
    filters: JSON.stringify(input.filters),
    workflow_id: input.workflow_id,
    workflow_inputs: toJson(input.workflow_inputs),
    enabled: input.enabled === false ? 0 : 1,
    priority: input.priority ?? 0,
    is_system: options.isSystem ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
  await db('triggers').insert(row);
  return row;
}

/** PATCH: any create field; filters and workflow_inputs replace what was there. */
export async function updateTrigger(db: Db, id: string, patch: TriggerPatch): Promise<TriggerRow> {
  const row = await requireTriggerRow(db, id);
  if (patch.workflow_id !== undefined) await requireWorkflowFor(db, patch.workflow_id);
  const changes: Partial<TriggerRow> = { updated_at: now() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.event_source !== undefined) changes.event_source = patch.event_source;
  if (patch.filters !== undefined) changes.filters = JSON.stringify(patch.filters);
  if (patch.workflow_id !== undefined) changes.workflow_id = patch.workflow_id;
  if (patch.workflow_inputs !== undefined) changes.workflow_inputs = toJson(patch.workflow_inputs);
  if (patch.enabled !== undefined) changes.enabled = patch.enabled ? 1 : 0;
  if (patch.priority !== undefined) changes.priority = patch.priority;
  await db('triggers').where({ id }).update(changes);
  return { ...row, ...changes };
}

/** System triggers come back with every seeding, so they are switched off (enable_auto_embedding, PATCH) rather than deleted. */
export async function deleteTrigger(db: Db, id: string): Promise<void> {
  const row = await requireTriggerRow(db, id);
  if (row.is_system) throw BadInput.field(`trigger '${id}' is a system trigger: disable it instead of deleting it`);
  await db('triggers').where({ id }).delete();
}

/** Enabled triggers whose workflow is active, lower priority first: what the dispatcher caches. */
export async function armedTriggers(db: Db): Promise<TriggerRow[]> {
  return db('triggers')
    .join('workflows', 'workflows.id', 'triggers.workflow_id')
    .where('triggers.enabled', true)
    .where('workflows.is_active', true)
    .orderBy([{ column: 'triggers.priority' }, { column: 'triggers.created_at' }, { column: 'triggers.id' }])
    .select('triggers.*');
}
