import { insertRows, type Db } from '../../storage/index.ts';
import { updateNodeRow } from '../nodes/repo.ts';
import { indexNewNodes, indexNode } from '../search-index.ts';

/**
 * Node writes for features that change the graph inside their own transaction (an extraction's commit,
 * a package import): every function takes the caller's transaction, so the change stays atomic.
 */

/** A node to insert; its properties are an object so that its full-text entry is written from them. */
export interface NewNode {
  id: string;
  template_id: string;
  label: string;
  properties: Record<string, unknown>;
  name_key: string | null;
  extracted: boolean;
  created_at: string;
  updated_at: string;
  position_x?: number | null;
  position_y?: number | null;
  source_id?: string | null;
  ccx_iri?: string | null;
  /** The JSON copy of the node's vector the API shows. */
  embedding?: string | null;
}

/** A node written again: its label and properties, which its full-text entry is rebuilt from. */
export interface NodeText {
  id: string;
  label: string;
  properties: Record<string, unknown>;
}

/** A node as the commit matches entities against it, extracted or made by hand. */
export interface KeyedNode {
  id: string;
  name_key: string;
  label: string;
  properties: string;
  template_name: string;
}

const nodeColumns = [
  'id',
  'template_id',
  'label',
  'properties',
  'position_x',
  'position_y',
  'source_id',
  'ccx_iri',
  'name_key',
  'extracted',
  'created_at',
  'updated_at',
  'embedding',
] as const;
const keySlice = 500;

/**
 * Inserts nodes and their full-text entries in multi-row statements. With `skipExisting`, a node whose id
 * is taken stays as it is, and so does its index entry.
 */
export async function insertNodes(trx: Db, nodes: NewNode[], options: { skipExisting?: boolean } = {}): Promise<void> {
  const fresh = options.skipExisting ? await withoutExisting(trx, nodes) : nodes;
  await insertRows(
    trx,
    'graph_nodes',
    nodeColumns,
    fresh.map((node) => ({ ...node, properties: JSON.stringify(node.properties) })),
  );
  await indexNewNodes(trx, fresh);
}

/** The nodes whose id no node has yet (the caller's transaction keeps it so). */
async function withoutExisting(trx: Db, nodes: NewNode[]): Promise<NewNode[]> {
  const taken = new Set<string>();
  for (let start = 0; start < nodes.length; start += keySlice) {
    const ids = nodes.slice(start, start + keySlice).map((node) => node.id);
    for (const row of (await trx('graph_nodes').whereIn('id', ids).select('id')) as { id: string }[]) taken.add(row.id);
  }
  return taken.size ? nodes.filter((node) => !taken.has(node.id)) : nodes;
}

/** Stores new properties (and labels, with `relabel`) of existing nodes and re-indexes them: one statement per node. */
export async function rewriteNodes(
  trx: Db,
  nodes: NodeText[],
  now: string,
  options: { relabel?: boolean } = {},
): Promise<void> {
  for (const node of nodes) {
    await updateNodeRow(trx, node.id, {
      ...(options.relabel ? { label: node.label } : {}),
      properties: JSON.stringify(node.properties),
      updated_at: now,
    });
    await indexNode(trx, node);
  }
}

/**
 * The nodes, extracted or made by hand, whose normalised name is one of `keys`, with their template's
 * name. Nodes stored without a key (made before every node kept one, or imported without it) are given
 * theirs first; once they have it, finding them is a lookup of the key's index that returns nothing.
 */
export async function nodesByNameKey(trx: Db, keys: string[]): Promise<KeyedNode[]> {
  await keyUnkeyedNodes(trx);
  const found: KeyedNode[] = [];
  for (let start = 0; start < keys.length; start += keySlice) {
    found.push(
      ...((await trx('graph_nodes as n')
        .join('graph_templates as t', 't.id', 'n.template_id')
        .whereIn('n.name_key', keys.slice(start, start + keySlice))
        .select('n.id', 'n.name_key', 'n.label', 'n.properties', 't.name as template_name')) as KeyedNode[]),
    );
  }
  return found;
}

async function keyUnkeyedNodes(trx: Db): Promise<void> {
  const unkeyed = (await trx('graph_nodes').whereNull('name_key').select('id', 'label')) as {
    id: string;
    label: string;
  }[];
  for (const node of unkeyed) await updateNodeRow(trx, node.id, { label: node.label });
}
