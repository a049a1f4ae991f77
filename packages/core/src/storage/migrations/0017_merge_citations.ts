import type { Knex } from 'knex';

/**
 * A node merge's journal keeps the citations the merge moved, united or removed (`node_merges.citations`,
 * JSON of the rows as they were), so undoing the merge gives every citation back to the node or edge it
 * cited. Merges journalled earlier have none and are undone without them.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('node_merges', (table) => {
    table.text('citations');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('node_merges', (table) => {
    table.dropColumn('citations');
  });
}
