/**
 * The orders of the node and edge lists. Every order ends on a unique column so pages never overlap, and
 * uses an index where the figure is stored: label, template_id, degree and updated_at are indexed columns;
 * the source count reads the link table's primary key per row, the confidence the properties of each row.
 */
import type { Knex } from 'knex';
import type { EdgeSortField, NodeSortField, SortOrder } from '@rhizome/contracts/api/graph-nodes';
import { dialectOf } from '../storage/index.ts';

export interface ItemOrder {
  by: NodeSortField | EdgeSortField;
  /** When absent: ascending for creation, names and types, descending for figures and times. */
  direction?: SortOrder;
}

/** The tables an order reads: the item table and its link table to sources. */
export interface OrderedTable {
  name: string;
  sourceLinks: { name: string; item: string };
}

const ascendingByDefault: ReadonlySet<ItemOrder['by']> = new Set(['created_at', 'label', 'template_id']);

/** Sorts `query` (over `table`) by `order`, ties broken by creation. */
export function applyOrder(query: Knex.QueryBuilder, table: OrderedTable, order: ItemOrder | undefined): void {
  if (!order || order.by === 'created_at') {
    query.orderBy('rowid', order?.direction ?? 'asc');
    return;
  }
  const direction = order.direction ?? (ascendingByDefault.has(order.by) ? 'asc' : 'desc');
  switch (order.by) {
    case 'label':
    case 'template_id':
    case 'updated_at':
      query.orderBy(order.by, direction);
      break;
    case 'degree':
      // Only nodes keep a degree; the contract offers it for nodes alone.
      query.orderBy('degree', direction);
      break;
    case 'source_count': {
      const { name, item } = table.sourceLinks;
      query.orderByRaw(`(SELECT COUNT(*) FROM ${name} WHERE ${name}.${item} = ${table.name}.id) ${direction}`);
      break;
    }
    case 'confidence': {
      const confidence = jsonNumber(query, `${table.name}.properties`, 'confidence');
      // Items without a confidence (made by hand) come last in both directions.
      query.orderByRaw(`CASE WHEN ${confidence} IS NULL THEN 1 ELSE 0 END, ${confidence} ${direction}`);
      break;
    }
  }
  query.orderBy('rowid', 'asc');
}

/** A number stored under `key` of a JSON text column, or NULL, in the database's own dialect. */
function jsonNumber(query: Knex.QueryBuilder, column: string, key: string): string {
  if (dialectOf(query) === 'postgres')
    return `CASE WHEN jsonb_typeof(${column}::jsonb -> '${key}') = 'number' THEN (${column}::jsonb ->> '${key}')::double precision END`;
  return `CASE WHEN json_valid(${column}) AND json_type(${column}, '$.${key}') IN ('integer', 'real') THEN json_extract(${column}, '$.${key}') END`;
}
