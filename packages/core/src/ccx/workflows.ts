import { WorkflowDefinition } from '@rhizome/contracts/api/workflows';
import { schemaProblems, type JsonSchema } from '../automation/json-schema.ts';
import { exportWorkflowDefinition, importWorkflowDefinition } from '../automation/workflows/portable.ts';
import { findWorkflowRow, listWorkflows } from '../automation/workflows/repo.ts';
import type { Db } from '../storage/connection.ts';
import type { WorkflowImporter } from './import-apply.ts';
import type { WorkflowSource } from './writer.ts';

/**
 * Workflows in packages, in the automation feature's portable definition form (`workflows` in
 * `workflows.jsonld`). User workflows only; oldest first, so a workflow another one runs as a step is
 * created before it on import.
 */
export const workflowSource: WorkflowSource = {
  async definitions(db: Db) {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const { items } = await listWorkflows(db, { isSystem: false }, { offset, limit: 500 });
      ids.push(...items.map((item) => item.id));
      if (items.length < 500) break;
    }
    const definitions: Record<string, unknown>[] = [];
    for (const id of ids.reverse()) definitions.push(await exportWorkflowDefinition(db, id));
    return definitions;
  },
};

/** Why a package's workflow definition is not one (empty when it is). */
export function workflowProblems(definition: unknown): string[] {
  return schemaProblems(WorkflowDefinition as unknown as JsonSchema, structuredClone(definition));
}

export const workflowImporter: WorkflowImporter = {
  /** A workflow whose id the database already has is the same workflow: skipped, not duplicated. */
  async import(trx, definition) {
    const id = (definition.workflow as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && (await findWorkflowRow(trx, id))) return false;
    await importWorkflowDefinition(trx, definition);
    return true;
  },
  async clear(trx) {
    await trx('workflows').where({ is_system: false }).delete();
  },
};
