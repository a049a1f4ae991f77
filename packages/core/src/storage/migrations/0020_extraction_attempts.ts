import type { Knex } from 'knex';

/**
 * Every extraction attempt of a group is kept (`extraction_attempts`): the prompts sent, the model's raw
 * answers, what was parsed, the items the guards and filters dropped with the reason, tokens, latency and
 * model, so a user can see what became of each chunk and re-run it. Raw material goes after
 * `source_processing.attempt_retention_days`. `recovery_events` records what the recovery scan queued
 * again for a source, and why.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('extraction_attempts', (table) => {
    table.string('id').primary();
    table.string('source_id').notNullable();
    table.string('job_id').notNullable();
    table.integer('group_index').notNullable();
    table.integer('attempt_number').notNullable();
    table.integer('first_chunk_index').notNullable();
    table.integer('last_chunk_index').notNullable();
    table.string('task_id');
    table.string('status').notNullable();
    table.string('provider');
    table.string('model');
    table.integer('entity_count').notNullable().defaultTo(0);
    table.integer('relationship_count').notNullable().defaultTo(0);
    table.integer('dropped_count').notNullable().defaultTo(0);
    table.integer('input_tokens').notNullable().defaultTo(0);
    table.integer('output_tokens').notNullable().defaultTo(0);
    table.integer('llm_duration_ms').notNullable().defaultTo(0);
    table.integer('input_text_length').notNullable().defaultTo(0);
    table.integer('llm_response_length').notNullable().defaultTo(0);
    table.string('finish_reason');
    table.string('aborted_by_loop');
    table.text('error_message');
    table.string('error_type');
    /** JSON: the calls made (pass, prompts, raw answer, finish reason, tokens), parsed items, dropped items. */
    table.text('calls');
    table.text('parsed');
    table.text('dropped');
    table.string('started_at').notNullable();
    table.string('completed_at').notNullable();
    table.index(['source_id', 'group_index'], 'extraction_attempts_group');
    table.index(['completed_at'], 'extraction_attempts_completed');
  });
  await db.schema.createTable('recovery_events', (table) => {
    table.increments('id');
    table.string('source_id').notNullable();
    table.string('attempt_at').notNullable();
    table.string('from_status').notNullable();
    table.string('action_taken').notNullable();
    table.string('reason').notNullable();
    table.integer('enqueued_count').notNullable().defaultTo(0);
    table.text('detail');
    table.index(['source_id', 'attempt_at'], 'recovery_events_source');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('recovery_events');
  await db.schema.dropTable('extraction_attempts');
}
