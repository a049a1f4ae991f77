import type { Knex } from 'knex';

/** A source tag can carry a free-text description of what it groups (null until one is given). */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('source_tags', (table) => {
    table.text('description');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('source_tags', (table) => {
    table.dropColumn('description');
  });
}
