import type { Knex } from 'knex';

/**
 * Entity tags: named, optionally coloured and described labels a person puts on nodes, one name per
 * database whatever its case (`name_key`, the lowered name, is unique). An assignment goes with its node
 * or its tag. `source_bulk_jobs` is a bulk action on many sources run as a queue task: the sources it
 * was given, how far it got and what failed and why, readable while it runs and after a reload.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('node_tags', (table) => {
    table.text('id').primary();
    table.text('name').notNullable();
    table.text('name_key').notNullable();
    table.text('color');
    table.text('description');
    table.text('created_at').notNullable();
    table.text('updated_at').notNullable();
    table.unique(['name_key'], { indexName: 'node_tags_name_key_unique' });
  });
  await db.schema.createTable('node_tag_links', (table) => {
    table.text('node_id').notNullable().references('id').inTable('graph_nodes').onDelete('CASCADE');
    table.text('tag_id').notNullable().references('id').inTable('node_tags').onDelete('CASCADE');
    table.primary(['node_id', 'tag_id']);
    table.index(['tag_id'], 'node_tag_links_tag_id_index');
  });
  await db.schema.createTable('source_bulk_jobs', (table) => {
    table.text('id').primary();
    table.text('task_id');
    table.text('action').notNullable();
    table.text('tag_id');
    /** JSON: the source ids in the order they are worked through. */
    table.text('source_ids').notNullable();
    table.integer('total').notNullable();
    table.integer('processed').notNullable().defaultTo(0);
    table.integer('succeeded').notNullable().defaultTo(0);
    table.integer('failed').notNullable().defaultTo(0);
    /** JSON: `[{index, id, error}]` for each source the action failed on. */
    table.text('failures').notNullable().defaultTo('[]');
    table.text('created_at').notNullable();
    table.text('updated_at').notNullable();
    table.index(['created_at'], 'source_bulk_jobs_created_at');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('source_bulk_jobs');
  await db.schema.dropTable('node_tag_links');
  await db.schema.dropTable('node_tags');
}
