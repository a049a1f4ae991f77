import type { Knex } from 'knex';

/**
 * Indexes for the entity and relationship lists sorted by their last change, and for relationships
 * sorted or narrowed by their label: a first page among 100,000 rows reads the index, not the table.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('graph_nodes', (table) => {
    table.index(['updated_at'], 'graph_nodes_updated_at');
  });
  await db.schema.alterTable('graph_edges', (table) => {
    table.index(['updated_at'], 'graph_edges_updated_at');
    table.index(['label'], 'graph_edges_label');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('graph_edges', (table) => {
    table.dropIndex(['label'], 'graph_edges_label');
    table.dropIndex(['updated_at'], 'graph_edges_updated_at');
  });
  await db.schema.alterTable('graph_nodes', (table) => {
    table.dropIndex(['updated_at'], 'graph_nodes_updated_at');
  });
}
