import { Invalid } from '@rhizome/contracts/errors';
import { insertIgnoringDuplicates, selectRows, type Db } from '../../storage/index.ts';
import { dropDerivedNodeVector } from './vectors.ts';
import { mergeAliases } from '../names.ts';
import { indexNode } from '../search-index.ts';
import { checkPropertyValue } from '../templates/property-values.ts';
import { captureRows, newMergeId, referringNodeIds } from './merge-journal.ts';
import { recordMerge } from './merge-undo.ts';
import { findNodeRow, toNode, updateNodeRow, type GraphNode } from './repo.ts';
import { getNode, requireNodeRow, type GraphScope, type NodeResponse } from './service.ts';
import { placeholders, parseJsonObject } from './sql.ts';
import { findTemplate, nodeTemplateLookup } from './template-rules.ts';

/** Citation rows as they were, by table, in a form the merge journal stores as JSON and hands back unread. */
export type CitationRows = Record<string, Record<string, unknown>[]>;

/**
 * What a node merge asks of the owner of the citations (extraction), inside the merge's transaction: the
 * citations of what goes move to what survives, each passage then cited once; and, so the merge can be
 * undone, the citations it changed or removed as they were, and putting those back.
 */
export interface MergedCitations {
  /** Moves the merged nodes' citations to the kept node; returns how many moved. */
  readonly moveNodeCitations: (trx: Db, keptId: string, mergedIds: string[]) => Promise<number>;
  /** Moves the citations of edges that collapse into `survivorId` to it, before they are deleted. */
  readonly moveEdgeCitations: (trx: Db, survivorId: string, duplicateIds: string[]) => Promise<void>;
  /** The citations of `nodeIds` and `edgeIds` as they are now. */
  readonly captureCitations: (trx: Db, nodeIds: string[], edgeIds: string[]) => Promise<CitationRows>;
  /** Of the rows `before` holds, those changed or deleted since, as they were then. */
  readonly changedCitations: (trx: Db, before: CitationRows) => Promise<CitationRows>;
  /** Puts rows `changedCitations` answered back as they were (same ids and values). */
  readonly restoreCitations: (trx: Db, rows: CitationRows) => Promise<void>;
}

export interface NodeMergeOutcome {
  merge_id: string;
  node: NodeResponse;
  merged_node_ids: string[];
  edges_moved: number;
  edges_collapsed: number;
  edges_removed: number;
  citations_moved: number;
  /** Whether the kept node's text changed, so a vector made from it was dropped and it wants embedding again. */
  needsEmbedding: boolean;
}

interface EdgeRow {
  id: string;
  source_node_id: string;
  target_node_id: string;
  label: string;
  properties: string;
  created_at: string;
}

/**
 * Merges `mergedIds` into `keptId` in one transaction: edges and citations move to the kept node (an edge
 * that would duplicate one of its edges collapses into it, one between the merged and the kept node is
 * removed rather than turned into a self-loop; a passage cited for both becomes one citation), the sources that contributed them and the merged nodes' tags follow, the merged
 * labels and aliases become aliases, their properties fill what the kept node lacks (where its template
 * accepts them), references to them in other nodes' properties point to the kept node, and they are
 * deleted. 404 for an unknown node and 422 for merging a node into itself, before anything is written.
 * The graph's rows before and after, and the citations it changed, are recorded, so the merge can be undone
 * for `retentionDays`.
 */
export async function mergeNodes(
  scope: GraphScope,
  citations: MergedCitations,
  keptId: string,
  mergedIds: string[],
  retentionDays: number,
): Promise<NodeMergeOutcome> {
  if (mergedIds.includes(keptId)) {
    throw new Invalid([
      {
        loc: ['body', 'node_ids', mergedIds.indexOf(keptId)],
        msg: 'A node cannot be merged into itself',
        type: 'value_error',
      },
    ]);
  }
  const counts = await scope.db.transaction(async (trx) => {
    const kept = toNode(await requireNodeRow(trx, keptId));
    const merged: GraphNode[] = [];
    for (const id of mergedIds) merged.push(toNode(await requireNodeRow(trx, id)));
    const referrerIds = await referringNodeIds(trx, mergedIds, [keptId, ...mergedIds]);
    const before = await captureRows(trx, [keptId, ...mergedIds], referrerIds);
    const citationsBefore = await citations.captureCitations(
      trx,
      [keptId, ...mergedIds],
      before.edges.map((edge) => edge.id as string),
    );

    const edges = await moveEdges(trx, citations, keptId, mergedIds);
    const citationsMoved = await citations.moveNodeCitations(trx, keptId, mergedIds);
    await insertIgnoringDuplicates(
      trx,
      `INTO node_sources (node_id, source_id) SELECT ?, source_id FROM node_sources WHERE node_id IN (${placeholders(mergedIds.length)})`,
      [keptId, ...mergedIds],
    );
    await insertIgnoringDuplicates(
      trx,
      `INTO node_tag_links (node_id, tag_id) SELECT ?, tag_id FROM node_tag_links WHERE node_id IN (${placeholders(mergedIds.length)})`,
      [keptId, ...mergedIds],
    );
    const next = await absorb(trx, kept, merged);
    const needsEmbedding = await dropDerivedNodeVector(trx, keptId);
    await updateNodeRow(trx, keptId, {
      properties: JSON.stringify(next.properties),
      position_x: next.position?.x ?? null,
      position_y: next.position?.y ?? null,
      source_id: next.source_id,
      updated_at: next.updated_at,
      ...(needsEmbedding ? { embedding: null } : {}),
    });
    await indexNode(trx, next);
    await trx('graph_nodes').whereIn('id', mergedIds).delete();
    await repointReferences(trx, mergedIds, keptId);
    const mergeId = newMergeId();
    const after = await captureRows(trx, [keptId], referrerIds);
    const citationChanges = await citations.changedCitations(trx, citationsBefore);
    await recordMerge(trx, { mergeId, keptId, before, after, citations: citationChanges, retentionDays });
    return { merge_id: mergeId, ...edges, citations_moved: citationsMoved, needsEmbedding };
  });
  const { merge_id, ...moved } = counts;
  return { merge_id, node: await getNode(scope.db, keptId), merged_node_ids: mergedIds, ...moved };
}

/**
 * Re-points the merged nodes' edges to the kept node. Edges are grouped by their ends and label once
 * moved; in each group the kept node's own edge (else the oldest) survives and takes the others'
 * citations, sources and missing properties.
 */
async function moveEdges(trx: Db, citations: MergedCitations, keptId: string, mergedIds: string[]) {
  const involved = [keptId, ...mergedIds];
  const marks = placeholders(involved.length);
  const rows = await selectRows<EdgeRow>(
    trx,
    `SELECT id, source_node_id, target_node_id, label, properties, created_at FROM graph_edges WHERE source_node_id IN (${marks}) OR target_node_id IN (${marks}) ORDER BY created_at, id`,
    [...involved, ...involved],
  );
  const merging = new Set(mergedIds);
  const moved = (id: string) => (merging.has(id) ? keptId : id);
  const wasSelfLoop = (edge: EdgeRow) => edge.source_node_id === edge.target_node_id;

  const removed: string[] = [];
  const groups = new Map<string, EdgeRow[]>();
  for (const edge of rows) {
    const source = moved(edge.source_node_id);
    const target = moved(edge.target_node_id);
    if (source === target && !wasSelfLoop(edge)) {
      removed.push(edge.id);
      continue;
    }
    const key = JSON.stringify([source, target, edge.label]);
    groups.set(key, [...(groups.get(key) ?? []), edge]);
  }

  let edgesMoved = 0;
  let edgesCollapsed = 0;
  for (const group of groups.values()) {
    const untouched = group.find((edge) => !merging.has(edge.source_node_id) && !merging.has(edge.target_node_id));
    const survivor = untouched ?? group[0];
    const duplicates = group.filter((edge) => edge !== survivor);
    if (survivor !== untouched) {
      await trx('graph_edges')
        .where({ id: survivor.id })
        .update({ source_node_id: moved(survivor.source_node_id), target_node_id: moved(survivor.target_node_id) });
      edgesMoved += 1;
    }
    if (!duplicates.length) continue;
    const ids = duplicates.map((edge) => edge.id);
    await citations.moveEdgeCitations(trx, survivor.id, ids);
    await insertIgnoringDuplicates(
      trx,
      `INTO edge_sources (edge_id, source_id) SELECT ?, source_id FROM edge_sources WHERE edge_id IN (${placeholders(ids.length)})`,
      [survivor.id, ...ids],
    );
    const properties = duplicates.reduce(
      (merged, edge) => ({ ...(parseJsonObject(edge.properties) ?? {}), ...merged }),
      parseJsonObject(survivor.properties) ?? {},
    );
    await trx('graph_edges')
      .where({ id: survivor.id })
      .update({ properties: JSON.stringify(properties), updated_at: new Date().toISOString() });
    await trx('graph_edges').whereIn('id', ids).delete();
    edgesCollapsed += duplicates.length;
  }
  if (removed.length) await trx('graph_edges').whereIn('id', removed).delete();
  return { edges_moved: edgesMoved, edges_collapsed: edgesCollapsed, edges_removed: removed.length };
}

/**
 * The kept node after the merge: its properties win; a merged node's property fills one it lacks when
 * the kept node's template accepts the value; every merged label and alias becomes an alias. A missing
 * position or source is taken from the first merged node that has one.
 */
async function absorb(trx: Db, kept: GraphNode, merged: GraphNode[]): Promise<GraphNode> {
  const template = await findTemplate(trx, kept.template_id);
  const definitions = new Map((template?.definitions ?? []).map((definition) => [definition.name, definition]));
  const lookup = nodeTemplateLookup(trx);
  const properties = { ...kept.properties };
  for (const node of merged) {
    for (const [key, value] of Object.entries(node.properties)) {
      if (key === 'aliases' || isEmpty(value) || !isEmpty(properties[key])) continue;
      const definition = definitions.get(key);
      if (definition && (await checkPropertyValue(definition, value, [key], lookup)).length) continue;
      properties[key] = value;
    }
  }
  const names = [kept.properties.aliases, ...merged.flatMap((node) => [node.label, node.properties.aliases])].flatMap(
    stringsOf,
  );
  const aliases = mergeAliases(kept.label, names);
  if (aliases.length) properties.aliases = aliases;
  return {
    ...kept,
    properties,
    position: kept.position ?? merged.find((node) => node.position)?.position ?? null,
    source_id: kept.source_id ?? merged.find((node) => node.source_id)?.source_id ?? null,
    updated_at: new Date().toISOString(),
  };
}

/** Other nodes' properties naming a merged node (node_reference values, alone or in lists) name the kept node instead. */
async function repointReferences(trx: Db, mergedIds: string[], keptId: string): Promise<void> {
  const merging = new Set(mergedIds);
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return merging.has(value) ? keptId : value;
    return Array.isArray(value) ? [...new Set(value.map(swap))] : value;
  };
  for (const id of mergedIds) {
    const rows = (await trx('graph_nodes').where('properties', 'like', `%"${id}"%`).select('id')) as { id: string }[];
    for (const { id: nodeId } of rows) {
      const row = await findNodeRow(trx, nodeId);
      if (!row) continue;
      const node = toNode(row);
      const properties = Object.fromEntries(Object.entries(node.properties).map(([key, value]) => [key, swap(value)]));
      await updateNodeRow(trx, nodeId, { properties: JSON.stringify(properties) });
      await indexNode(trx, { ...node, properties });
    }
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
