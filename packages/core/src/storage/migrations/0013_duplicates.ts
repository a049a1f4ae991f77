import type { Knex } from 'knex';

/**
 * Duplicate review: `duplicate_rejections` keeps the pairs a person said are not one entity, so they are
 * never proposed again; `node_merges` keeps every node merge with what it changed, so it can be undone
 * within the retention window. `before` holds the rows the merge rewrote or deleted as they were, `after`
 * the kept node's row as the merge left it (an undo compares it to tell whether the node changed since).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('duplicate_rejections', (table) => {
    table.string('pair_id').primary();
    table.string('node_a_id').notNullable();
    table.string('node_b_id').notNullable();
    table.string('rejected_at').notNullable();
  });
  await db.schema.createTable('node_merges', (table) => {
    table.string('id').primary();
    table.string('kept_node_id').notNullable();
    table.string('kept_label').notNullable();
    table.text('merged').notNullable();
    table.text('before').notNullable();
    table.text('after').notNullable();
    table.string('merged_at').notNullable();
    table.string('expires_at').notNullable();
    table.string('undone_at');
    table.index(['merged_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('node_merges');
  await db.schema.dropTable('duplicate_rejections');
}
