import type { Knex } from 'knex';
import type { BatchOutcome } from '@rhizome/contracts/api/batch';
import type {
  TemplateCreate,
  TemplateResponse,
  TemplateTypeName,
  TemplateUpdate,
} from '@rhizome/contracts/api/templates';
import { BadInput, Invalid, NotFound, Conflict } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { newTemplateId } from '../ids.ts';
import { parseBatchInput } from './batch-input.ts';
import { validateDefinitions } from './definitions.ts';
import type { PropertyDefinition } from './property-types.ts';
import {
  deleteTemplateRow,
  findTemplate,
  insertTemplate,
  listTemplates,
  normalizeDefinition,
  templateTypesOf,
  templateUsage,
  updateTemplateRow,
} from './repo.ts';
import { nodeTemplateLookup } from '../nodes/template-rules.ts';
import { describeFailure } from '../nodes/template-rules.ts';

const reservedPrefix = 'system_';

/** One batch operation as the batch endpoint accepts it; `data` is checked when it runs. */
export interface TemplateBatchStep {
  operation: string;
  data: unknown;
}

/** Templates of one database: CRUD, the system_ rules, forced deletion, batches. */
export class TemplateService {
  constructor(private readonly db: Db) {}

  async list(query: {
    templateType?: TemplateTypeName;
    offset: number;
    limit: number;
  }): Promise<{ templates: TemplateResponse[]; total: number }> {
    return listTemplates(this.db, query);
  }

  async get(id: string): Promise<TemplateResponse> {
    const template = await findTemplate(this.db, id);
    if (!template) throw NotFound.resource('template', id);
    return template;
  }

  async create(input: TemplateCreate): Promise<TemplateResponse> {
    checkName(input.name);
    const properties = await this.checkDefinitions(input.properties ?? []);
    const now = new Date().toISOString();
    const id = newTemplateId();
    await insertTemplate(this.db, {
      id,
      name: input.name,
      template_type: input.template_type,
      description: input.description ?? null,
      icon: input.icon ?? null,
      color: input.color ?? null,
      properties,
      is_system: false,
      source_id: input.source_id ?? null,
      created_at: now,
      updated_at: now,
    });
    return this.get(id);
  }

  async update(id: string, patch: TemplateUpdate): Promise<TemplateResponse> {
    const current = await this.get(id);
    if (patch.name !== undefined) {
      checkName(patch.name);
      if (current.is_system && patch.name !== current.name)
        throw BadInput.field(`System template '${id}' cannot be renamed`, 'name');
    }
    const properties = patch.properties ? await this.checkDefinitions(patch.properties) : undefined;
    await updateTemplateRow(this.db, id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.icon !== undefined ? { icon: patch.icon } : {}),
      ...(patch.color !== undefined ? { color: patch.color } : {}),
      ...(properties ? { properties } : {}),
      updated_at: new Date().toISOString(),
    });
    return this.get(id);
  }

  /**
   * Deletes a template. While nodes or edges use it: 409 unless `force`, which deletes them too (and the
   * edges of those nodes), taking the nodes out of the search index, all in one transaction.
   */
  async remove(
    id: string,
    options: { force?: boolean } = {},
  ): Promise<{ nodes_removed: number; edges_removed: number }> {
    const current = await this.get(id);
    if (current.is_system) throw BadInput.field(`System template '${id}' cannot be deleted`, 'template_id');
    return this.db.transaction(async (trx) => {
      const usage = await templateUsage(trx, id);
      if ((usage.node_count > 0 || usage.edge_count > 0) && !options.force) {
        throw new Conflict(
          `Template '${id}' is used by ${usage.node_count} node(s) and ${usage.edge_count} edge(s); delete with force=true to remove them too`,
          usage,
        );
      }
      const removed =
        usage.node_count + usage.edge_count > 0 ? await deleteUsers(trx, id) : { nodes_removed: 0, edges_removed: 0 };
      if ((await deleteTemplateRow(trx, id)) === 0) throw NotFound.resource('template', id);
      return removed;
    });
  }

  /**
   * Runs create/update/delete operations in order; a failed one is recorded and the next one runs.
   * `checkCancelled` runs between operations (a cancelled task stops there).
   */
  async runBatch(operations: TemplateBatchStep[], checkCancelled?: () => Promise<void>): Promise<BatchOutcome[]> {
    const outcomes: BatchOutcome[] = [];
    for (const [index, step] of operations.entries()) {
      await checkCancelled?.();
      const operation = String(step?.operation);
      const data = step?.data;
      const knownId =
        data && typeof data === 'object' && typeof (data as { id?: unknown }).id === 'string'
          ? (data as { id: string }).id
          : undefined;
      try {
        const input = parseBatchInput(operation, data);
        let id: string;
        if (input.operation === 'create') id = (await this.create(input.data)).id;
        else if (input.operation === 'update') id = (await this.update(input.id, input.data)).id;
        else {
          await this.remove(input.id, { force: input.force });
          id = input.id;
        }
        outcomes.push({ index, operation, success: true, id });
      } catch (error) {
        outcomes.push({
          index,
          operation,
          success: false,
          ...(knownId && operation !== 'create' ? { id: knownId } : {}),
          error: describeFailure(error),
        });
      }
    }
    return outcomes;
  }

  /** Schema-valid definitions checked against the rules beyond the schema (422), then normalized for storage. */
  private async checkDefinitions(definitions: PropertyDefinition[]) {
    const issues = await validateDefinitions(definitions, {
      templateTypesOf: (ids) => templateTypesOf(this.db, ids),
      nodeTemplateOf: nodeTemplateLookup(this.db),
    });
    if (issues.length) throw new Invalid(issues, 'Invalid property definitions');
    return definitions.map(normalizeDefinition);
  }
}

function checkName(name: string): void {
  if (name.toLowerCase().startsWith(reservedPrefix)) {
    throw BadInput.field(
      `Template names must not start with '${reservedPrefix}' (reserved for system templates)`,
      'name',
    );
  }
}

/** Deletes the edges and nodes typed by the template and every edge of those nodes; unindexes the nodes. */
async function deleteUsers(
  trx: Knex.Transaction,
  templateId: string,
): Promise<{ nodes_removed: number; edges_removed: number }> {
  const nodesOfTemplate = () => trx('graph_nodes').where({ template_id: templateId }).select('id');
  const edgesRemoved = await trx('graph_edges')
    .where({ template_id: templateId })
    .orWhereIn('source_node_id', nodesOfTemplate())
    .orWhereIn('target_node_id', nodesOfTemplate())
    .delete();
  const nodesRemoved = await trx('graph_nodes').where({ template_id: templateId }).delete();
  return { nodes_removed: nodesRemoved, edges_removed: edgesRemoved };
}
