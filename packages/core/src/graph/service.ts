import type { QueueService, TaskStore } from '@rhizome/queue';
import { countOf } from '@rhizome/contracts/wording';
import { describeError, NotFound } from '@rhizome/contracts/errors';
import type { Logger } from '../logging.ts';
import type { Db } from '../storage/index.ts';
import { submitDatabaseTask } from '../tasks/index.ts';
import { nodesBatchOperation, edgesBatchOperation } from './batch-tasks.ts';
import { canvasData, type CanvasOptions } from './canvas.ts';
import {
  createEdge,
  deleteEdge,
  edgeCitations,
  edgeLabels,
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
import { listDuplicateProposals, rejectDuplicateProposal } from './duplicates/proposals.ts';
import { mergeNodes, type MergedCitations } from './nodes/merge.ts';
import { listMerges, undoMerge } from './nodes/merge-undo.ts';
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
import { nodeNames, resolveName } from './node-lookup.ts';
import { isSnapshotStale, readSnapshot, type GraphBreakdown } from './snapshot.ts';
import { graphStatistics } from './statistics.ts';
import { sourceGroups } from './read-model.ts';
import { TemplateService } from './templates/service.ts';
import { NodeTags } from './tags/store.ts';
import { templateBatchOperation, templateEmbeddingsOperation } from './templates/tasks.ts';
import { shortestPath, traverse, type WalkFilter } from './walk.ts';

export interface GraphServiceDeps {
  db: Db;
  database: string;
  events: GraphEventBus;
  queue: QueueService;
  tasks: TaskStore;
  logger: Logger;
  /** The citations' owner, which a node merge carries them along through and its undo gives them back through. */
  citations: MergedCitations;
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
  /** The entity tags and their assignments. */
  readonly tags: NodeTags;
  private readonly scope: GraphScope;

  constructor(private readonly deps: GraphServiceDeps) {
    this.scope = { db: deps.db, database: deps.database, events: deps.events };
    this.templates = new TemplateService(deps.db);
    this.tags = new NodeTags(deps.db, deps.database);
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

  /** Merges `mergedIds` into `keptId`: edges and citations move, the merged names stay as aliases; undoable for `retentionDays`. */
  mergeNodes(keptId: string, mergedIds: string[], retentionDays: number) {
    return mergeNodes(this.scope, this.deps.citations, keptId, mergedIds, retentionDays);
  }

  listMerges(window: Window) {
    return listMerges(this.deps.db, window);
  }

  undoMerge(mergeId: string) {
    return undoMerge(this.deps.db, this.deps.citations, mergeId);
  }

  /** Pairs of nodes that are probably one, highest score first, without the pairs a person rejected. */
  duplicateProposals(minScore: number, window: Window) {
    return listDuplicateProposals(this.deps.db, minScore, window);
  }

  rejectDuplicate(proposalId: string) {
    return rejectDuplicateProposal(this.deps.db, proposalId);
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

  edgeLabels() {
    return edgeLabels(this.deps.db);
  }

  edgeCitations(id: string, window: Window) {
    return edgeCitations(this.deps.db, id, window);
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

  /**
   * How two nodes are connected: the fewest-hops chain of edges from one to the other within `maxDepth`
   * hops, each step with the labels of its ends; null when there is none. 404 for an unknown node.
   */
  async shortestPath(from: string, to: string, maxDepth: number, filter: WalkFilter) {
    await this.requireNodes([from, to]);
    const path = await shortestPath(this.deps.db, from, to, maxDepth, filter);
    if (!path) return null;
    const named = await nodeNames(this.deps.db, [from, ...path.map((step) => step.to)]);
    return path.map((step) => ({
      ...step,
      from_label: named.get(step.from)?.label ?? null,
      to_label: named.get(step.to)?.label ?? null,
    }));
  }

  /**
   * The nodes within `depth` hops of `start` (at most `limit`), each with its label, template, hop count
   * and the edge it was first reached by; only those of `templateIds` when given, though the walk passes
   * through every node. 404 for an unknown start.
   */
  async traverse(start: string, options: { depth: number; limit: number; filter: WalkFilter; templateIds?: string[] }) {
    await this.requireNodes([start]);
    const { reached, truncated } = await traverse(this.deps.db, start, options.depth, options.limit, options.filter);
    const named = await nodeNames(
      this.deps.db,
      reached.map((entry) => entry.node_id),
    );
    const wanted = options.templateIds?.length ? new Set(options.templateIds) : null;
    const nodes = reached
      .map((entry) => ({ node_id: entry.node_id, ...named.get(entry.node_id), depth: entry.depth, via: entry.via }))
      .filter((entry) => !wanted || (entry.template_id !== undefined && wanted.has(entry.template_id)));
    return { nodes, truncated };
  }

  /** The label and template of each of the nodes that exists. */
  nodeNames(ids: string[]) {
    return nodeNames(this.deps.db, ids);
  }

  /** The nodes a name is the label or an alias of, ignoring case. */
  resolveName(name: string, limit: number) {
    return resolveName(this.deps.db, name, limit);
  }

  /** Node, edge and template counts, nodes per template, edges per label and the degree distribution. */
  statistics() {
    return graphStatistics(this.deps.db);
  }

  private async requireNodes(ids: string[]): Promise<void> {
    const found = await nodeNames(this.deps.db, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw NotFound.resource('node', missing);
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
