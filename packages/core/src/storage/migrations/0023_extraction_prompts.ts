import type { Knex } from 'knex';

/**
 * The prompt record of an extraction job: the prompt sections (the domain's instructions, the system
 * prompt, the output format) of its first recorded attempt, as a JSON array of strings, which its
 * attempts refer to by index instead of carrying every prompt whole. It goes with its job.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('extraction_prompts', (table) => {
    table.text('job_id').primary().references('id').inTable('extraction_jobs').onDelete('CASCADE');
    table.text('sections').notNullable();
    table.text('created_at').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('extraction_prompts');
}
