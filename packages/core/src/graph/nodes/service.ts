import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import type { GraphEventBus } from '../events.ts';
import { newNodeId } from '../ids.ts';
import { patchItem } from '../items.ts';
import { indexNewNodes, indexNode } from '../search-index.ts';
import { dropDerivedNodeVector, setClientNodeVector, storeClientNodeVectors } from './vectors.ts';
import type { NodeTemplateLookup } from '../templates/property-values.ts';
import { citationsPage, sourceExists } from '../read-model.ts';
import { nodeTagRefs, type NodeTagRef } from '../tags/store.ts';
import { connectionsPage, type ConnectionSort } from './navigation.ts';
import { templateAfterUpdate } from './retype.ts';
import {
  deleteNodeRow,
  findNodeRow,
  insertNodeRows,
  listNodeRows,
  nodeStats,
  toMinimalNode,
  toNode,
  toRow,
  updateNodeRow,
  type GraphNode,
  type NodeFilter,
  type NodeRow,
  type NodeStats,
  type Position,
} from './repo.ts';
import {
  checkedProperties,
  checkLabel,
  checkTemplate,
  findTemplate,
  nodeTemplateLookup,
  type TemplateRules,
} from './template-rules.ts';

/** Where a graph write happens: the database (by name, for events) and the bus that hears about creations. */
export interface GraphScope {
  db: Db;
  database: string;
  events: GraphEventBus;
}

export interface NodeCreateInput {
  template_id: string;
  label: string;
  properties?: Record<string, unknown>;
  position?: Position | null;
  embedding?: number[] | null;
  source_id?: string | null;
}

export interface NodeUpdateInput {
  template_id?: string;
  label?: string;
  properties?: Record<string, unknown>;
  position?: Position | null;
  embedding?: number[] | null;
}

type Loc = (string | number)[];
type StatsFields = { [K in keyof NodeStats]: number | null };
/** A node as the API shows it: its counts (null in a list without include_stats) and, read alone or listed, its tags. */
export type NodeResponse = GraphNode & StatsFields & { tags?: NodeTagRef[] };

const noStats: StatsFields = {
  edge_count: null,
  incoming_edge_count: null,
  outgoing_edge_count: null,
  citation_count: null,
  relationship_type_count: null,
};

export function withStats(node: GraphNode, stats?: NodeStats): NodeResponse {
  return { ...node, ...(stats ?? noStats) };
}

/** A single node always carries its counts and tags (lists their counts only with include_stats, where they cost one statement per page). */
async function withOwnStats(db: Db, node: GraphNode): Promise<NodeResponse> {
  const [stats, tags] = await Promise.all([nodeStats(db, [node.id]), nodeTagRefs(db, [node.id])]);
  return { ...withStats(node, stats.get(node.id)), tags: tags.get(node.id) ?? [] };
}

/** The lookups checking a new node needs; the batch passes cached ones that also see its pending rows. */
export interface NodeDraftLookups {
  template(id: string): Promise<TemplateRules | null>;
  sourceExists(id: string): Promise<boolean>;
  nodeTemplateOf: NodeTemplateLookup;
}

export function directLookups(db: Db): NodeDraftLookups {
  return {
    template: (id) => findTemplate(db, id),
    sourceExists: (id) => sourceExists(db, id),
    nodeTemplateOf: nodeTemplateLookup(db),
  };
}

/**
 * A checked new node, not yet written: the template exists and types nodes (404 / 422), the label is not
 * blank, the source exists (404), and the properties match the template with its defaults filled (422).
 * `at` prefixes the location of issues (`['body']` over HTTP, `['data']` in a batch).
 */
export async function draftNode(
  lookups: NodeDraftLookups,
  input: NodeCreateInput,
  at: Loc,
  now: string,
): Promise<GraphNode> {
  const template = checkTemplate(await lookups.template(input.template_id), input.template_id, 'node', [
    ...at,
    'template_id',
  ]);
  checkLabel(input.label, [...at, 'label']);
  const sourceId = input.source_id ?? null;
  if (sourceId !== null && !(await lookups.sourceExists(sourceId))) throw NotFound.resource('source', sourceId);
  const properties = await checkedProperties(template, input.properties, lookups.nodeTemplateOf, [...at, 'properties']);
  return {
    id: newNodeId(),
    template_id: template.id,
    label: input.label,
    properties,
    position: input.position ?? null,
    embedding: input.embedding ?? null,
    source_id: sourceId,
    created_at: now,
    updated_at: now,
  };
}

export function publishNodeCreated(scope: GraphScope, id: string): void {
  scope.events.publish({
    source: 'node.create',
    database: scope.database,
    payload: { entity_type: 'node', entity_id: id },
  });
}

/** Writes checked nodes and indexes each in the caller's transaction. */
export async function writeNodes(db: Db, nodes: GraphNode[]): Promise<void> {
  await insertNodeRows(db, nodes.map(toRow));
  await indexNewNodes(db, nodes);
  await storeClientNodeVectors(db, nodes);
}

export async function createNode(scope: GraphScope, input: NodeCreateInput, at: Loc = ['body']): Promise<NodeResponse> {
  const node = await scope.db.transaction(async (trx) => {
    const draft = await draftNode(directLookups(trx), input, at, new Date().toISOString());
    await writeNodes(trx, [draft]);
    return draft;
  });
  publishNodeCreated(scope, node.id);
  return withOwnStats(scope.db, node);
}

export async function requireNodeRow(db: Db, id: string): Promise<NodeRow> {
  const row = await findNodeRow(db, id);
  if (!row) throw NotFound.resource('node', id);
  return row;
}

async function loadNode(db: Db, id: string): Promise<GraphNode> {
  return toNode(await requireNodeRow(db, id));
}

export async function getNode(db: Db, id: string): Promise<NodeResponse> {
  return withOwnStats(db, await loadNode(db, id));
}

export interface NodeListOptions {
  filter: NodeFilter;
  window: { offset: number; limit: number };
  minimal?: boolean;
  includeStats?: boolean;
}

export async function listNodes(db: Db, options: NodeListOptions) {
  const { rows, total } = await listNodeRows(db, options.filter, options.window, options.minimal ?? false);
  if (options.minimal) return { items: rows.map(toMinimalNode), total };
  const ids = rows.map((row) => row.id);
  const [stats, tags] = await Promise.all([
    options.includeStats ? nodeStats(db, ids) : undefined,
    nodeTagRefs(db, ids),
  ]);
  return {
    items: rows.map((row) => ({ ...withStats(toNode(row), stats?.get(row.id)), tags: tags.get(row.id) ?? [] })),
    total,
  };
}

/** Whether a PATCH rewrites what a node's vector is made of (its label and description) without supplying a vector. */
export function textChanged(input: NodeUpdateInput): boolean {
  return input.embedding === undefined && (input.label !== undefined || input.properties !== undefined);
}

/**
 * PATCH: template, label, properties (a full replacement, checked against the template), position,
 * embedding. A new template retypes the node in place, so its id, edges, sources, citations and vector
 * stay; its properties (the given ones, else its own) are checked against the new template.
 * A label or properties change drops a vector Rhizome made from the old text (see `textChanged`).
 * No event is published: the only sources the event bus carries are node.create and edge.create
 * (docs/api-conventions.md, Events), so editing a node starts no workflow.
 */
export function updateNode(
  scope: GraphScope,
  id: string,
  input: NodeUpdateInput,
  at: Loc = ['body'],
): Promise<NodeResponse> {
  return patchItem(
    scope.db,
    (trx) => loadNode(trx, id),
    input.label,
    at,
    async (trx, current, next) => {
      if (input.template_id !== undefined || input.properties !== undefined) {
        const template = await templateAfterUpdate(trx, current, input.template_id, at);
        next.template_id = template.id;
        next.properties = await checkedProperties(
          template,
          input.properties ?? current.properties,
          nodeTemplateLookup(trx),
          [...at, 'properties'],
        );
      }
      if (input.position !== undefined) next.position = input.position;
      if (input.embedding !== undefined) next.embedding = input.embedding;
      else if (textChanged(input) && (await dropDerivedNodeVector(trx, id))) next.embedding = null;
      const { id: _id, created_at: _created, ...changes } = toRow(next);
      await updateNodeRow(trx, id, changes);
      await indexNode(trx, next);
      if (input.embedding !== undefined) await setClientNodeVector(trx, id, input.embedding);
      return withOwnStats(trx, next);
    },
  );
}

/** PATCH position: moves the node on the canvas; publishes no event, the index is still refreshed. */
export function moveNode(scope: GraphScope, id: string, position: Position): Promise<NodeResponse> {
  return patchItem(
    scope.db,
    (trx) => loadNode(trx, id),
    undefined,
    [],
    async (trx, _current, next) => {
      next.position = position;
      await updateNodeRow(trx, id, { position_x: position.x, position_y: position.y, updated_at: next.updated_at });
      await indexNode(trx, next);
      return withOwnStats(trx, next);
    },
  );
}

/** Deletes the node; its edges and citations cascade in SQL and a trigger takes it out of the search index. */
export async function deleteNode(scope: GraphScope, id: string): Promise<void> {
  await scope.db.transaction(async (trx) => {
    await requireNodeRow(trx, id);
    await deleteNodeRow(trx, id);
  });
}

export async function nodeConnections(
  db: Db,
  id: string,
  sort: ConnectionSort,
  window: { offset: number; limit: number },
) {
  await requireNodeRow(db, id);
  return connectionsPage(db, id, sort, window);
}

export async function nodeCitations(db: Db, id: string, window: { offset: number; limit: number }) {
  await requireNodeRow(db, id);
  return citationsPage(db, id, window);
}
