import type { QueueService, TaskStore } from '@rhizome/queue';
import { countOf } from '@rhizome/contracts/wording';
import { describeError } from '@rhizome/contracts/errors';
import type { Logger } from '../logging.ts';
import type { Db } from '../storage/index.ts';
import { submitDatabaseTask } from '../tasks/index.ts';
import { nodesBatchOperation, edgesBatchOperation } from './batch-tasks.ts';
import { canvasData, type CanvasOptions } from './canvas.ts';
import {
  createEdge,
  deleteEdge,
  getEdge,
  listEdges,
  updateEdge,
  type EdgeCreateInput,
  type EdgeListOptions,
  type EdgeUpdateInput,
} from './edges/service.ts';
import type { GraphEventBus } from './events.ts';
import {
  groundingNeighbors,
  groundingNodeDetail,
  groundingNodes,
  type NeighborDirection,
  type Window,
} from './grounding.ts';
import { cleanupOperation, requestSnapshotBuild } from './maintenance-tasks.ts';
import { mergeNodes } from './nodes/merge.ts';
import type { ConnectionSort } from './nodes/navigation.ts';
import type { Position } from './nodes/repo.ts';
import {
  createNode,
  deleteNode,
  getNode,
  listNodes,
  moveNode,
  nodeCitations,
  nodeConnections,
  updateNode,
  type GraphScope,
  type NodeCreateInput,
  type NodeListOptions,
  type NodeUpdateInput,
} from './nodes/service.ts';
import { isSnapshotStale, readSnapshot, type GraphBreakdown } from './snapshot.ts';
import { sourceGroups } from './read-model.ts';
import { TemplateService } from './templates/service.ts';
import { templateBatchOperation, templateEmbeddingsOperation } from './templates/tasks.ts';

export interface GraphServiceDeps {
  db: Db;
  database: string;
  events: GraphEventBus;
  queue: QueueService;
  tasks: TaskStore;
  logger: Logger;
}

/** What queuing a task answers: its id and a line saying what was queued. */
export interface Queued {
  task_id: string;
  status: 'queued';
  message: string;
}

/** The knowledge graph of one database: nodes, edges, templates, the canvas, snapshots and grounding reads. */
export class GraphService {
  readonly templates: TemplateService;
  private readonly scope: GraphScope;

  constructor(private readonly deps: GraphServiceDeps) {
    this.scope = { db: deps.db, database: deps.database, events: deps.events };
    this.templates = new TemplateService(deps.db);
  }

  get database(): string {
    return this.deps.database;
  }

  listNodes(options: NodeListOptions) {
    return listNodes(this.deps.db, options);
  }

  getNode(id: string) {
    return getNode(this.deps.db, id);
  }

  createNode(input: NodeCreateInput) {
    return createNode(this.scope, input);
  }

  updateNode(id: string, input: NodeUpdateInput) {
    return updateNode(this.scope, id, input);
  }

  /** Merges `mergedIds` into `keptId`: edges and citations move, the merged names stay as aliases. */
  mergeNodes(keptId: string, mergedIds: string[]) {
    return mergeNodes(this.scope, keptId, mergedIds);
  }

  moveNode(id: string, position: Position) {
    return moveNode(this.scope, id, position);
  }

  deleteNode(id: string) {
    return deleteNode(this.scope, id);
  }

  nodeConnections(id: string, sort: ConnectionSort, window: Window) {
    return nodeConnections(this.deps.db, id, sort, window);
  }

  nodeCitations(id: string, window: Window) {
    return nodeCitations(this.deps.db, id, window);
  }

  listEdges(options: EdgeListOptions) {
    return listEdges(this.deps.db, options);
  }

  getEdge(id: string) {
    return getEdge(this.deps.db, id);
  }

  createEdge(input: EdgeCreateInput) {
    return createEdge(this.scope, input);
  }

  updateEdge(id: string, input: EdgeUpdateInput) {
    return updateEdge(this.scope, id, input);
  }

  deleteEdge(id: string) {
    return deleteEdge(this.scope, id);
  }

  /** Queues a node or edge batch on the operations lane; its results are the task's result. */
  async queueBatch(entity: 'node' | 'edge', operations: unknown[]): Promise<Queued> {
    const task = await this.submit(entity === 'node' ? nodesBatchOperation : edgesBatchOperation, { operations });
    return this.queued(
      task.task_id,
      `${countOf(operations.length, `${entity} operation`)} queued; results at /queue/tasks/${task.task_id}/result`,
    );
  }

  async queueTemplateBatch(operations: unknown[]): Promise<Queued> {
    const task = await this.submit(templateBatchOperation, { operations });
    return this.queued(task.task_id, `${operations.length} template operation(s) queued`);
  }

  async queueTemplateEmbeddings(): Promise<Queued> {
    const task = await this.submit(templateEmbeddingsOperation);
    return this.queued(task.task_id, 'Template embeddings are being regenerated');
  }

  async queueCleanup(): Promise<Queued> {
    const task = await this.submit(cleanupOperation);
    return this.queued(task.task_id, `Graph cleanup of '${this.deps.database}' queued`);
  }

  canvas(options: CanvasOptions) {
    return canvasData(this.deps.db, options);
  }

  sourceGroups() {
    return sourceGroups(this.deps.db);
  }

  /**
   * The stored breakdown, or null while none exists (a build is queued then). A stale one is still the
   * answer; its rebuild is queued, and a full or unreachable queue only delays that rebuild.
   */
  async snapshot(): Promise<GraphBreakdown | null> {
    const stored = await readSnapshot(this.deps.db);
    if (!stored) {
      await this.requestSnapshot(true);
      return null;
    }
    if (await isSnapshotStale(this.deps.db, stored)) {
      await this.requestSnapshot(true).catch((error: unknown) => {
        this.deps.logger.warning(
          `graph snapshot rebuild of '${this.deps.database}' not queued: ${describeError(error)}`,
        );
      });
    }
    return stored.breakdown;
  }

  /** An explicit rebuild: a build already running may have read the graph before a change, so only a queued one is reused. */
  async refreshSnapshot(): Promise<Queued> {
    const { task_id } = await this.requestSnapshot(false);
    return this.queued(task_id, `Graph snapshot rebuild of '${this.deps.database}' queued`);
  }

  groundingNodes(options: { templateId?: string; q?: string; window: Window }) {
    return groundingNodes(this.deps.db, options);
  }

  groundingNodeDetail(id: string, edgeLimit: number) {
    return groundingNodeDetail(this.deps.db, id, edgeLimit);
  }

  /** Edges from and/or to a node in full, a page at a time: what agents read. */
  async groundingEdges(options: { sourceNodeId?: string; targetNodeId?: string; window: Window }) {
    const { items, total } = await listEdges(this.deps.db, {
      filter: { sourceNodeId: options.sourceNodeId, targetNodeId: options.targetNodeId },
      window: options.window,
    });
    return { rows: items, total };
  }

  groundingNeighbors(id: string, direction: NeighborDirection, limit: number) {
    return groundingNeighbors(this.deps.db, id, direction, limit);
  }

  private requestSnapshot(reuseRunning: boolean) {
    return requestSnapshotBuild({
      queue: this.deps.queue,
      tasks: this.deps.tasks,
      database: this.deps.database,
      reuseRunning,
    });
  }

  private submit(operation: string, data: Record<string, unknown> = {}) {
    return submitDatabaseTask(this.deps.queue, this.deps.database, operation, data);
  }

  private queued(taskId: string, message: string): Queued {
    return { task_id: taskId, status: 'queued', message };
  }
}
