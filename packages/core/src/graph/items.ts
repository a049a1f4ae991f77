/**
 * What nodes and edges share as rows of their tables: ownership by sources, pages in creation order,
 * reads, updates and deletes by id, and the shape of a PATCH.
 */
import type { Knex } from 'knex';
import type { Db } from '../storage/index.ts';
import { applyOrder, type ItemOrder } from './item-order.ts';
import { checkLabel } from './nodes/template-rules.ts';

export interface ItemTable {
  name: 'graph_nodes' | 'graph_edges';
  /** The table naming the sources an item was extracted from, and its column naming the item. */
  sourceLinks: { name: 'node_sources' | 'edge_sources'; item: 'node_id' | 'edge_id' };
}

export const nodeTable: ItemTable = { name: 'graph_nodes', sourceLinks: { name: 'node_sources', item: 'node_id' } };
export const edgeTable: ItemTable = { name: 'graph_edges', sourceLinks: { name: 'edge_sources', item: 'edge_id' } };

export interface Window {
  offset: number;
  limit: number;
  /** The order the rows are paged in; creation order when absent. */
  order?: ItemOrder;
}

/** The table each query of `itemsQuery` reads, so that a page can order it by its own columns. */
const tableOfQuery = new WeakMap<Knex.QueryBuilder, ItemTable>();

/**
 * The table's rows, only those `sourceIds` own when given. A source's extracted items are owned through
 * the link table; source_id alone names only the creating source.
 */
export function itemsQuery(db: Db, table: ItemTable, sourceIds?: readonly string[]): Knex.QueryBuilder {
  const query = db(table.name);
  if (sourceIds !== undefined) {
    const { name, item } = table.sourceLinks;
    query.where((scope) =>
      scope.whereIn('source_id', sourceIds).orWhereIn('id', db(name).whereIn('source_id', sourceIds).select(item)),
    );
  }
  tableOfQuery.set(query, table);
  return query;
}

/**
 * One page of the rows `matching` (a query of `itemsQuery`) selects, in the window's order (creation order
 * by default), and how many match.
 */
export async function itemPage<Row>(
  matching: () => Knex.QueryBuilder,
  columns: readonly string[],
  window: Window,
): Promise<{ rows: Row[]; total: number }> {
  const [{ total }] = await matching().count({ total: '*' });
  const page = matching().select(...columns);
  const table = tableOfQuery.get(page);
  if (!table) throw new Error('itemPage pages queries of itemsQuery only');
  applyOrder(page, table, window.order);
  const rows = (await page.limit(window.limit).offset(window.offset)) as Row[];
  return { rows, total: Number(total) };
}

export async function findItemRow<Row>(
  db: Db,
  table: ItemTable,
  id: string,
  columns: readonly string[],
): Promise<Row | undefined> {
  return (await db(table.name)
    .where({ id })
    .first(...columns)) as Row | undefined;
}

export async function updateItemRow(db: Db, table: ItemTable, id: string, changes: object): Promise<void> {
  await db(table.name).where({ id }).update(changes);
}

export async function deleteItemRow(db: Db, table: ItemTable, id: string): Promise<boolean> {
  return (await db(table.name).where({ id }).delete()) > 0;
}

/**
 * A PATCH of a node or edge in one transaction: the current item, a copy stamped now with the checked
 * new label, which `apply` changes further, writes back and answers with.
 */
export function patchItem<Item extends { label: string; updated_at: string }, Result>(
  db: Db,
  load: (trx: Db) => Promise<Item>,
  label: string | undefined,
  at: (string | number)[],
  apply: (trx: Db, current: Item, next: Item) => Promise<Result>,
): Promise<Result> {
  return db.transaction(async (trx) => {
    const current = await load(trx);
    const next: Item = { ...current, updated_at: new Date().toISOString() };
    if (label !== undefined) {
      checkLabel(label, [...at, 'label']);
      next.label = label;
    }
    return apply(trx, current, next);
  });
}
