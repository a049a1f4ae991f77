import type { Knex } from 'knex';

/** The consolidated baseline schema. Its downgrade is intentionally empty (docs/api-conventions.md#versioning-and-migrations). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('graph_templates', (table) => {
    table.string('id').primary();
    table.string('name').notNullable();
    table.string('template_type').notNullable();
    table.text('description');
    table.boolean('is_system').notNullable().defaultTo(false);
    table.string('icon');
    table.string('color');
    table.text('properties').notNullable().defaultTo('[]');
    table.text('embedding');
    table.string('embedding_model');
    table.integer('embedding_dimensions');
    table.string('source_id');
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['template_type']);
  });
}

export async function down(): Promise<void> {}
