import { submitDatabaseTask } from '../tasks/index.ts';
import type { QueueService, TaskStore } from '@rhizome/queue';
import { jsonArrayValues, perDialect, selectRows, type Db } from '../storage/index.ts';
import type { DefineOperations } from './deps.ts';
import { taskDatabase } from './task-database.ts';
import { buildSnapshot } from './snapshot.ts';

export const snapshotBuildOperation = 'graph.snapshot_build';
export const cleanupOperation = 'graph.cleanup';

/**
 * The graph's maintenance tasks on the operations lane: `graph.snapshot_build` (data `{database}`,
 * result `{generated_at, node_count, edge_count}`) and `graph.cleanup` (data `{database}`, result
 * `{nodes_removed, edges_removed}`). Both are safe to run again, so the default retry policy applies.
 */
export const defineGraphMaintenanceOperations: DefineOperations = (registry, deps) => {
  registry.define(snapshotBuildOperation, { queue: 'operations' }, async ({ task }) => {
    const breakdown = await buildSnapshot(await taskDatabase(deps, task.data.database));
    return {
      generated_at: breakdown.generated_at,
      node_count: breakdown.totals.nodes,
      edge_count: breakdown.totals.edges,
    };
  });
  registry.define(cleanupOperation, { queue: 'operations' }, async ({ task, logger }) => {
    const result = await cleanupGraph(await taskDatabase(deps, task.data.database));
    logger.info(
      `graph cleanup on '${String(task.data.database)}': ${result.nodes_removed} nodes and ${result.edges_removed} edges removed`,
    );
    return result;
  });
};

/** A node is corrupt without an id, template or label, or when its template no longer exists. */
const corruptNode = `n.id IS NULL OR n.id = '' OR n.template_id IS NULL OR n.template_id = '' OR n.label IS NULL OR trim(n.label) = ''
  OR NOT EXISTS (SELECT 1 FROM graph_templates t WHERE t.id = n.template_id)`;
/** An edge is corrupt without an id or label, or when an endpoint or its template no longer exists. */
const corruptEdge = `e.id IS NULL OR e.id = '' OR e.label IS NULL OR trim(e.label) = ''
  OR NOT EXISTS (SELECT 1 FROM graph_templates t WHERE t.id = e.template_id)
  OR NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = e.source_node_id)
  OR NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = e.target_node_id)`;

/**
 * Removes corrupt rows (rows written around the API, e.g. with foreign keys off, or left behind when a
 * template row vanished): corrupt nodes with their edges and index entries, then every edge that is
 * corrupt itself or lost an endpoint. One transaction; rows are addressed by rowid since their id
 * may be missing.
 */
export async function cleanupGraph(db: Db): Promise<{ nodes_removed: number; edges_removed: number }> {
  return db.transaction(async (trx) => {
    const nodes = await selectRows<{ row_id: number; id: string | null }>(
      trx,
      `SELECT n.rowid AS row_id, n.id FROM graph_nodes n WHERE ${corruptNode}`,
    );
    let edgesRemoved = 0;
    for (let start = 0; start < nodes.length; start += 500) {
      const chunk = nodes.slice(start, start + 500);
      const ids = JSON.stringify(chunk.map((node) => node.id).filter((id) => id !== null));
      edgesRemoved += await deletedRows(
        trx,
        `DELETE FROM graph_edges WHERE source_node_id IN (${jsonArrayValues(trx)}) OR target_node_id IN (${jsonArrayValues(trx)})`,
        [ids, ids],
      );
      await trx.raw(`DELETE FROM graph_nodes WHERE rowid IN (${jsonArrayValues(trx, 'integer')})`, [
        JSON.stringify(chunk.map((node) => node.row_id)),
      ]);
    }
    edgesRemoved += await deletedRows(
      trx,
      `DELETE FROM graph_edges WHERE rowid IN (SELECT e.rowid FROM graph_edges e WHERE ${corruptEdge})`,
      [],
    );
    return { nodes_removed: nodes.length, edges_removed: edgesRemoved };
  });
}

/** Runs a DELETE and tells how many rows it deleted. */
const deletedRows = perDialect<[sql: string, bindings: string[]], Promise<number>>({
  sqlite: async (db, sql, bindings) => {
    await db.raw(sql, bindings);
    return Number(((await db.raw('SELECT changes() AS n')) as { n: number }[])[0].n);
  },
  postgres: async (db, sql, bindings) => ((await db.raw(sql, bindings)) as { rowCount: number }).rowCount,
});

// ---------------------------------------------------------------------------------------------------
// Queuing snapshot builds without piling them up. The API remembers, per database, the last build task
// it queued and asks the task store about that one task (one lookup, not a scan of the task list):
// while it is still queued (or, for automatic builds, running), that task is the answer. A build that
// is already running may have read the graph before a change, so an explicit refresh queues a new one
// then. The memory is per process: after a restart at most one extra build can be queued.
// ---------------------------------------------------------------------------------------------------

interface BuildMemory {
  lastTask: Map<string, string>;
  /** Requests for one database run one after another, so two concurrent ones cannot both queue. */
  chain: Map<string, Promise<unknown>>;
}

const memories = new WeakMap<QueueService, BuildMemory>();

export interface SnapshotBuildRequest {
  queue: QueueService;
  tasks: TaskStore;
  database: string;
  /** false for an explicit refresh: a build already running does not count. */
  reuseRunning: boolean;
}

/** Queues a snapshot build of `database` unless an equivalent one is pending; returns its task id. */
export function requestSnapshotBuild(request: SnapshotBuildRequest): Promise<{ task_id: string; reused: boolean }> {
  let memory = memories.get(request.queue);
  if (!memory) memories.set(request.queue, (memory = { lastTask: new Map(), chain: new Map() }));
  const { lastTask, chain } = memory;
  const run = async () => {
    const previous = lastTask.get(request.database);
    if (previous) {
      const task = await request.tasks.get(previous);
      if (task && (task.status === 'queued' || (request.reuseRunning && task.status === 'running')))
        return { task_id: previous, reused: true };
    }
    const task = await submitDatabaseTask(request.queue, request.database, snapshotBuildOperation);
    lastTask.set(request.database, task.task_id);
    return { task_id: task.task_id, reused: false };
  };
  const result = (chain.get(request.database) ?? Promise.resolve()).then(run, run);
  const settled = result.catch(() => undefined);
  chain.set(request.database, settled);
  void settled.then(() => {
    if (chain.get(request.database) === settled) chain.delete(request.database);
  });
  return result;
}
