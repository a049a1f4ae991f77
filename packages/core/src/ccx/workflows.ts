import { PortableTrigger } from '@rhizome/contracts/api/triggers';
import { WorkflowDefinition } from '@rhizome/contracts/api/workflows';
import { schemaProblems, type JsonSchema } from '../automation/index.ts';
import { createTrigger, listTriggers, toTrigger } from '../automation/index.ts';
import { exportWorkflowDefinition, importWorkflowDefinition } from '../automation/index.ts';
import { findWorkflowRow, listWorkflows } from '../automation/index.ts';
import type { Db } from '../storage/index.ts';
import { invalidPackage } from './errors.ts';
import type { WorkflowImporter } from './import-apply.ts';
import type { CcxTrigger } from './model.ts';
import type { WorkflowSource } from './writer.ts';

const page = 500;

/**
 * Workflows in packages, in the automation feature's portable definition form (`workflows` in
 * `workflows.jsonld`), and the user's triggers (`triggers`, TriggerResponse's fields). User workflows
 * only; oldest first, so a workflow another one runs as a step is created before it on import. System
 * triggers stay behind: every database seeds its own, switched by its settings.
 */
export const workflowSource: WorkflowSource = {
  async definitions(db: Db) {
    const ids: string[] = [];
    for (let offset = 0; ; offset += page) {
      const { items } = await listWorkflows(db, { isSystem: false }, { offset, limit: page });
      ids.push(...items.map((item) => item.id));
      if (items.length < page) break;
    }
    const definitions: Record<string, unknown>[] = [];
    for (const id of ids.reverse()) definitions.push(await exportWorkflowDefinition(db, id));
    return definitions;
  },
  async triggers(db: Db) {
    const triggers: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += page) {
      const { rows } = await listTriggers(db, {}, { offset, limit: page });
      triggers.push(...rows.filter((row) => !row.is_system).map(toTrigger));
      if (rows.length < page) break;
    }
    return triggers;
  },
};

/** Why a package's workflow definition is not one (empty when it is). */
export function workflowProblems(definition: unknown): string[] {
  return schemaProblems(WorkflowDefinition as unknown as JsonSchema, structuredClone(definition));
}

/** The `triggers` of a package's workflows.jsonld; 400 naming the first one that is not a trigger. */
export function readTriggers(items: Record<string, unknown>[]): CcxTrigger[] {
  return items.map((item, index) => {
    const trigger = structuredClone(item);
    const problems = schemaProblems(PortableTrigger as unknown as JsonSchema, trigger);
    if (problems.length)
      throw invalidPackage(`workflows.jsonld: triggers[${index}] is not a trigger (${problems.join('; ')})`);
    const { id, name, event_source, filters, workflow_id, workflow_inputs, enabled, priority } =
      trigger as unknown as CcxTrigger;
    return {
      id,
      name,
      event_source,
      filters: filters ?? {},
      workflow_id,
      workflow_inputs: workflow_inputs ?? null,
      enabled,
      priority,
    };
  });
}

export const workflowImporter: WorkflowImporter = {
  /** A workflow whose id the database already has is the same workflow: skipped, not duplicated. */
  async import(trx, definition) {
    const id = (definition.workflow as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && (await findWorkflowRow(trx, id))) return { id, created: false };
    return { id: (await importWorkflowDefinition(trx, definition)).id, created: true };
  },
  /** Likewise a trigger: one whose id the database has is skipped; the others keep their id. */
  async importTrigger(trx, trigger, workflowId) {
    if (await trx('triggers').where({ id: trigger.id }).first('id')) return false;
    await createTrigger(trx, { ...trigger, workflow_id: workflowId }, { id: trigger.id });
    return true;
  },
  async workflowExists(trx, id) {
    return Boolean(await findWorkflowRow(trx, id));
  },
  /** The user's workflows and triggers (a user trigger may start a system workflow); system ones stay. */
  async clear(trx) {
    await trx('triggers').where({ is_system: false }).delete();
    await trx('workflows').where({ is_system: false }).delete();
  },
};
