import { validationIssues } from '@rhizome/contracts/validation-issues';
import { batchResult, type BatchOutcome, type BatchResult } from '@rhizome/contracts/api/batch';
import type { Ajv, ValidateFunction } from 'ajv';
import { ajvFor } from '@rhizome/contracts/ajv';
import { batchDataSchemas } from '@rhizome/contracts/api/graph-nodes';
import { DomainError, Invalid } from '@rhizome/contracts/errors';
import { PermanentTaskError, TaskCancelledError, type HandlerContext } from '@rhizome/queue';
import type { Db } from '../storage/index.ts';
import {
  draftEdge,
  publishEdgeCreated,
  toEdgeRow,
  deleteEdge,
  updateEdge,
  type DraftEdge,
  type EdgeCreateInput,
  type EdgeUpdateInput,
} from './edges/service.ts';
import { insertEdgeRows } from './edges/repo.ts';
import { nodeTemplates, type GraphNode } from './nodes/repo.ts';
import {
  deleteNode,
  draftNode,
  publishNodeCreated,
  updateNode,
  writeNodes,
  type GraphScope,
  type NodeCreateInput,
  type NodeDraftLookups,
  type NodeUpdateInput,
} from './nodes/service.ts';
import { describeFailure, findTemplate, type TemplateRules } from './nodes/template-rules.ts';
import { sourceExists } from './read-model.ts';
import type { DefineOperations, GraphDeps } from './deps.ts';
import { taskDatabase } from './task-database.ts';

/**
 * POST /nodes/batch and /edges/batch run here, on the operations lane: operations in order, each
 * reported on its own (`{index, operation, success, id?, error?}`), a failure never stopping later
 * ones. Runs of consecutive creates share a transaction of up to 500 operations and a multi-row
 * insert; each is still checked on its own, and a group the database refuses as a whole is replayed
 * one operation at a time so that every outcome stays individual.
 */
export const nodesBatchOperation = 'graph.nodes_batch';
export const edgesBatchOperation = 'graph.edges_batch';

export const defineGraphBatchOperations: DefineOperations = (registry, deps) => {
  // A batch is not idempotent (creates get fresh ids): never run one twice.
  const options = { queue: 'operations' as const, retryOnTransient: false, retryOnCrash: false };
  registry.define(nodesBatchOperation, options, (context) => runBatch(context, deps, nodeBatch));
  registry.define(edgesBatchOperation, options, (context) => runBatch(context, deps, edgeBatch));
};

type OperationName = 'create' | 'update' | 'delete';
interface BatchOperation {
  /** create, update or delete; anything else fails on its own. */
  operation: string;
  data: Record<string, unknown>;
}

const groupSize = 500;
const cancelCheckEvery = 100;

/** What differs between the node and the edge batch. */
interface BatchKind<Draft extends { id: string }> {
  validators: Record<OperationName, ValidateFunction>;
  /** Node ids the creates of a group mention (endpoints), fetched in one query up front. */
  referencedNodes(data: Record<string, unknown>[]): string[];
  draft(lookups: NodeDraftLookups, data: Record<string, unknown>, now: string): Promise<Draft>;
  /** Node ids and templates a draft adds, visible to later creates of the same group. */
  pendingNode(draft: Draft): [string, string] | null;
  write(db: Db, drafts: Draft[]): Promise<void>;
  published(scope: GraphScope, id: string): void;
  update(scope: GraphScope, id: string, data: Record<string, unknown>): Promise<unknown>;
  remove(scope: GraphScope, id: string): Promise<void>;
}

const ajv = ajvFor('batchItem');
const compile = (schemas: Record<OperationName, Parameters<Ajv['compile']>[0]>) => ({
  create: ajv.compile(schemas.create),
  update: ajv.compile(schemas.update),
  delete: ajv.compile(schemas.delete),
});

const nodeBatch: BatchKind<GraphNode> = {
  validators: compile(batchDataSchemas.nodes),
  referencedNodes: () => [],
  draft: (lookups, data, now) => draftNode(lookups, data as unknown as NodeCreateInput, ['data'], now),
  pendingNode: (node) => [node.id, node.template_id],
  write: writeNodes,
  published: publishNodeCreated,
  update: (scope, id, data) => updateNode(scope, id, data as NodeUpdateInput, ['data']),
  remove: deleteNode,
};

const edgeBatch: BatchKind<DraftEdge> = {
  validators: compile(batchDataSchemas.edges),
  referencedNodes: (data) =>
    data
      .flatMap((item) => [item.source_node_id, item.target_node_id])
      .filter((id): id is string => typeof id === 'string'),
  draft: (lookups, data, now) => draftEdge(lookups, data as unknown as EdgeCreateInput, ['data'], now),
  pendingNode: () => null,
  write: (db, edges) => insertEdgeRows(db, edges.map(toEdgeRow)),
  published: publishEdgeCreated,
  update: (scope, id, data) => updateEdge(scope, id, data as EdgeUpdateInput, ['data']),
  remove: deleteEdge,
};

async function runBatch<Draft extends { id: string }>(
  context: HandlerContext,
  deps: GraphDeps,
  kind: BatchKind<Draft>,
): Promise<BatchResult> {
  const { database, operations } = readTask(context.task.data);
  const scope: GraphScope = { db: await taskDatabase(deps, database), database, events: deps.events };
  const results: BatchOutcome[] = [];
  let nextCheck = 0;
  const checkpoint = async (index: number) => {
    if (index < nextCheck) return;
    nextCheck = index + cancelCheckEvery;
    await context.checkCancelled();
  };

  let index = 0;
  while (index < operations.length) {
    if (operations[index].operation === 'create') {
      let end = index;
      while (end < operations.length && end - index < groupSize && operations[end].operation === 'create') end++;
      results.push(...(await createGroup(scope, kind, operations, index, end, checkpoint)));
      index = end;
    } else {
      await checkpoint(index);
      results.push(await runOne(scope, kind, operations[index], index));
      index++;
    }
  }
  const result = batchResult(results);
  context.logger.info(
    `${context.task.operation} on '${database}': ${result.succeeded} of ${results.length} operations succeeded`,
  );
  return result;
}

/** Creates operations [start, end) in one transaction; a database failure replays them one by one. */
async function createGroup<Draft extends { id: string }>(
  scope: GraphScope,
  kind: BatchKind<Draft>,
  operations: BatchOperation[],
  start: number,
  end: number,
  checkpoint: (index: number) => Promise<void>,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  let drafts: Draft[] = [];
  try {
    await scope.db.transaction(async (trx) => {
      const group = operations.slice(start, end);
      const lookups = await groupLookups(trx, kind.referencedNodes(group.map((operation) => operation.data)));
      const now = new Date().toISOString();
      for (const [offset, operation] of group.entries()) {
        const index = start + offset;
        await checkpoint(index);
        try {
          const draft = await kind.draft(lookups.lookups, checkData(kind.validators.create, operation.data), now);
          const pending = kind.pendingNode(draft);
          if (pending) lookups.addNode(...pending);
          drafts.push(draft);
          outcomes.push({ index, operation: 'create', success: true, id: draft.id });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          outcomes.push({ index, operation: 'create', success: false, error: describeFailure(error) });
        }
      }
      await kind.write(trx, drafts);
    });
  } catch (error) {
    if (error instanceof TaskCancelledError) throw error;
    // Rolled back as a whole (a template or endpoint removed meanwhile, a constraint): one at a time.
    drafts = [];
    outcomes.length = 0;
    for (let index = start; index < end; index++) {
      await checkpoint(index);
      outcomes.push(await createOne(scope, kind, operations[index], index));
    }
    return outcomes;
  }
  for (const draft of drafts) kind.published(scope, draft.id);
  return outcomes;
}

async function createOne<Draft extends { id: string }>(
  scope: GraphScope,
  kind: BatchKind<Draft>,
  operation: BatchOperation,
  index: number,
): Promise<BatchOutcome> {
  try {
    const draft = await scope.db.transaction(async (trx) => {
      const lookups = await groupLookups(trx, kind.referencedNodes([operation.data]));
      const created = await kind.draft(
        lookups.lookups,
        checkData(kind.validators.create, operation.data),
        new Date().toISOString(),
      );
      await kind.write(trx, [created]);
      return created;
    });
    kind.published(scope, draft.id);
    return { index, operation: 'create', success: true, id: draft.id };
  } catch (error) {
    if (error instanceof TaskCancelledError) throw error;
    return { index, operation: 'create', success: false, error: describeFailure(error) };
  }
}

async function runOne<Draft extends { id: string }>(
  scope: GraphScope,
  kind: BatchKind<Draft>,
  operation: BatchOperation,
  index: number,
): Promise<BatchOutcome> {
  const id = typeof operation.data.id === 'string' ? operation.data.id : undefined;
  try {
    if (operation.operation !== 'update' && operation.operation !== 'delete')
      throw new Error(`Unknown operation '${operation.operation}'`);
    const data = checkData(kind.validators[operation.operation], operation.data);
    const { id: target, ...changes } = data as { id: string } & Record<string, unknown>;
    if (operation.operation === 'update') await kind.update(scope, target, changes);
    else await kind.remove(scope, target);
    return { index, operation: operation.operation, success: true, id: target };
  } catch (error) {
    if (error instanceof TaskCancelledError) throw error;
    return {
      index,
      operation: operation.operation,
      success: false,
      ...(id ? { id } : {}),
      error: describeFailure(error),
    };
  }
}

/**
 * Lookups for one group, cached for its duration: templates and sources once each, the endpoints of
 * all its edges in one query, and the nodes the group itself creates before they are written.
 */
async function groupLookups(db: Db, prefetch: string[]) {
  const templates = new Map<string, Promise<TemplateRules | null>>();
  const sources = new Map<string, Promise<boolean>>();
  const nodes = new Map<string, string | null>(prefetch.length ? await nodeTemplates(db, prefetch) : []);
  for (const id of prefetch) if (!nodes.has(id)) nodes.set(id, null);
  const cached = <T>(cache: Map<string, Promise<T>>, id: string, load: () => Promise<T>) => {
    let pending = cache.get(id);
    if (!pending) cache.set(id, (pending = load()));
    return pending;
  };
  const lookups: NodeDraftLookups = {
    template: (id) => cached(templates, id, () => findTemplate(db, id)),
    sourceExists: (id) => cached(sources, id, () => sourceExists(db, id)),
    nodeTemplateOf: async (id) => {
      if (nodes.has(id)) return nodes.get(id)!;
      const found = (await nodeTemplates(db, [id])).get(id) ?? null;
      nodes.set(id, found);
      return found;
    },
  };
  return { lookups, addNode: (id: string, templateId: string) => nodes.set(id, templateId) };
}

/** The operation's data checked against the single endpoint's body (unknown fields dropped), or 422. */
function checkData(validate: ValidateFunction, data: Record<string, unknown>): Record<string, unknown> {
  if (!validate(data)) throw new Invalid(validationIssues(validate.errors ?? [], ['data']), 'Invalid operation data');
  return data;
}

function readTask(data: Record<string, unknown>): { database: string; operations: BatchOperation[] } {
  const { database, operations } = data;
  if (typeof database !== 'string' || !database)
    throw new PermanentTaskError('data.database must name a database', 'ValidationError');
  if (!Array.isArray(operations)) throw new PermanentTaskError('data.operations must be a list', 'ValidationError');
  // The API refuses malformed entries; one in a task queued directly fails on its own.
  return {
    database,
    operations: operations.map((entry) => {
      const { operation, data: fields } = (entry ?? {}) as { operation?: unknown; data?: unknown };
      const isObject = fields !== null && typeof fields === 'object' && !Array.isArray(fields);
      return { operation: String(operation), data: isObject ? (fields as Record<string, unknown>) : {} };
    }),
  };
}
