import { NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { newEdgeId } from '../ids.ts';
import { patchItem } from '../items.ts';
import { edgeCitationsPage } from '../read-model.ts';
import { directLookups, type GraphScope, type NodeDraftLookups } from '../nodes/service.ts';
import {
  checkedProperties,
  checkLabel,
  checkTemplate,
  findTemplate,
  nodeTemplateLookup,
} from '../nodes/template-rules.ts';
import {
  deleteEdgeRow,
  edgeLabelCounts,
  findEdgeRow,
  insertEdgeRows,
  listEdgeRows,
  toEdge,
  toMinimalEdge,
  updateEdgeRow,
  type EdgeFilter,
  type EdgeRow,
  type GraphEdge,
} from './repo.ts';

export interface EdgeCreateInput {
  template_id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties?: Record<string, unknown>;
  source_id?: string | null;
}

export interface EdgeUpdateInput {
  label?: string;
  properties?: Record<string, unknown>;
}

type Loc = (string | number)[];

/** A checked new edge with the source it belongs to (stored, not shown). */
export type DraftEdge = GraphEdge & { source_id: string | null };

/**
 * A checked new edge, not yet written: the template exists and types edges (404 / 422), the label is
 * not blank, both endpoints exist (404 naming which), the source exists (404), and the properties match
 * the template with its defaults filled (422). Nothing is written before every check passed.
 */
export async function draftEdge(
  lookups: NodeDraftLookups,
  input: EdgeCreateInput,
  at: Loc,
  now: string,
): Promise<DraftEdge> {
  const template = checkTemplate(await lookups.template(input.template_id), input.template_id, 'edge', [
    ...at,
    'template_id',
  ]);
  checkLabel(input.label, [...at, 'label']);
  for (const [field, name] of [
    ['source_node_id', 'Source'],
    ['target_node_id', 'Target'],
  ] as const) {
    const nodeId = input[field];
    if ((await lookups.nodeTemplateOf(nodeId)) === null) {
      throw new NotFound(`${name} node '${nodeId}' not found`, { resource_type: 'node', identifier: nodeId, field });
    }
  }
  const sourceId = input.source_id ?? null;
  if (sourceId !== null && !(await lookups.sourceExists(sourceId))) throw NotFound.resource('source', sourceId);
  const properties = await checkedProperties(template, input.properties, lookups.nodeTemplateOf, [...at, 'properties']);
  return {
    id: newEdgeId(),
    template_id: template.id,
    source_node_id: input.source_node_id,
    target_node_id: input.target_node_id,
    label: input.label,
    properties,
    source_id: sourceId,
    created_at: now,
    updated_at: now,
  };
}

export function toEdgeRow(edge: DraftEdge): EdgeRow {
  return { ...edge, properties: JSON.stringify(edge.properties) };
}

export function publishEdgeCreated(scope: GraphScope, id: string): void {
  scope.events.publish({
    source: 'edge.create',
    database: scope.database,
    payload: { entity_type: 'edge', entity_id: id },
  });
}

export function withoutSource(edge: DraftEdge): GraphEdge {
  const { source_id: _source, ...shown } = edge;
  return shown;
}

export async function createEdge(scope: GraphScope, input: EdgeCreateInput, at: Loc = ['body']): Promise<GraphEdge> {
  const edge = await scope.db.transaction(async (trx) => {
    const draft = await draftEdge(directLookups(trx), input, at, new Date().toISOString());
    await insertEdgeRows(trx, [toEdgeRow(draft)]);
    return draft;
  });
  publishEdgeCreated(scope, edge.id);
  return withoutSource(edge);
}

export async function requireEdgeRow(db: Db, id: string): Promise<EdgeRow> {
  const row = await findEdgeRow(db, id);
  if (!row) throw NotFound.resource('edge', id);
  return row;
}

export async function getEdge(db: Db, id: string): Promise<GraphEdge> {
  return toEdge(await requireEdgeRow(db, id));
}

export interface EdgeListOptions {
  filter: EdgeFilter;
  window: { offset: number; limit: number };
  minimal?: boolean;
}

export async function listEdges(db: Db, options: EdgeListOptions) {
  const { rows, total } = await listEdgeRows(db, options.filter, options.window, options.minimal ?? false);
  return { items: options.minimal ? rows.map(toMinimalEdge) : rows.map(toEdge), total };
}

/** The relationship types in use, for choosing one to list. */
export function edgeLabels(db: Db) {
  return edgeLabelCounts(db);
}

/** Where the edge was found in the sources: the sentences that state it, with their passages. */
export async function edgeCitations(db: Db, id: string, window: { offset: number; limit: number }) {
  await requireEdgeRow(db, id);
  return edgeCitationsPage(db, id, window);
}

/** PATCH: label and/or properties (a full replacement, checked against the edge's template). */
export function updateEdge(
  scope: GraphScope,
  id: string,
  input: EdgeUpdateInput,
  at: Loc = ['body'],
): Promise<GraphEdge> {
  return patchItem(
    scope.db,
    (trx) => getEdge(trx, id),
    input.label,
    at,
    async (trx, current, next) => {
      if (input.properties !== undefined) {
        const template = await findTemplate(trx, current.template_id);
        if (!template) throw NotFound.resource('template', current.template_id);
        next.properties = await checkedProperties(template, input.properties, nodeTemplateLookup(trx), [
          ...at,
          'properties',
        ]);
      }
      await updateEdgeRow(trx, id, {
        label: next.label,
        properties: JSON.stringify(next.properties),
        updated_at: next.updated_at,
      });
      return next;
    },
  );
}

export async function deleteEdge(scope: GraphScope, id: string): Promise<void> {
  if (!(await deleteEdgeRow(scope.db, id))) throw NotFound.resource('edge', id);
}
