import type { Knex } from 'knex';

/**
 * Automation (issue 12): workflows with their steps, executions with one row per step run, event
 * triggers, user tools (configured system tools) and one row per tool call for the tools' statistics.
 * System tools live in code, not in a table: they ship with the build.
 *
 * Step ids are unique within their workflow (the key `{{steps.<id>…}}` references use), so a workflow
 * definition imports under a new workflow id with its step ids and references unchanged. Deleting a
 * workflow deletes its steps, executions and triggers; deleting a trigger keeps the executions it
 * started (their `trigger_id` becomes null).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflows', (table) => {
    table.string('id').primary();
    table.string('name').notNullable();
    table.text('description');
    table.string('category').notNullable().defaultTo('general');
    table.boolean('is_system').notNullable().defaultTo(false);
    table.boolean('is_active').notNullable().defaultTo(true);
    table.boolean('expose_as_ai_tool').notNullable().defaultTo(false);
    table.text('input_schema').notNullable();
    table.text('output_schema');
    table.boolean('allow_parallel_execution').notNullable().defaultTo(true);
    table.integer('timeout_seconds').notNullable();
    table.integer('max_retries').notNullable();
    table.text('tags');
    table.string('icon');
    table.integer('version').notNullable().defaultTo(1);
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['is_active']);
  });
  await db.schema.createTable('workflow_steps', (table) => {
    table.string('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.string('id').notNullable();
    table.integer('step_number').notNullable();
    table.string('name').notNullable();
    table.text('description');
    table.string('tool_type').notNullable();
    table.string('tool_id').notNullable();
    table.text('configuration').notNullable();
    table.text('condition');
    table.boolean('retry_on_failure').notNullable().defaultTo(false);
    table.integer('timeout_seconds');
    table.text('depends_on').notNullable();
    table.boolean('continue_on_error').notNullable().defaultTo(false);
    table.boolean('thinking_mode').notNullable().defaultTo(false);
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.primary(['workflow_id', 'id']);
  });
  await db.schema.createTable('triggers', (table) => {
    table.string('id').primary();
    table.string('name').notNullable();
    table.string('event_source').notNullable();
    table.text('filters').notNullable();
    table.string('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.text('workflow_inputs');
    table.boolean('enabled').notNullable().defaultTo(true);
    table.integer('priority').notNullable().defaultTo(0);
    table.boolean('is_system').notNullable().defaultTo(false);
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['event_source', 'enabled']);
    table.index(['workflow_id']);
  });
  await db.schema.createTable('workflow_executions', (table) => {
    table.string('id').primary();
    table.string('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.string('task_id');
    table.string('trigger_id').references('id').inTable('triggers').onDelete('SET NULL');
    table.string('parent_execution_id').references('id').inTable('workflow_executions').onDelete('CASCADE');
    table.integer('depth').notNullable().defaultTo(0);
    table.string('status').notNullable();
    table.text('inputs').notNullable();
    table.text('outputs');
    table.text('error');
    table.string('created_at').notNullable();
    table.string('started_at');
    table.string('completed_at');
    table.integer('duration_ms');
    table.index(['workflow_id', 'created_at']);
    table.index(['trigger_id']);
    table.index(['status']);
    table.index(['parent_execution_id']);
  });
  await db.schema.createTable('workflow_step_runs', (table) => {
    table.increments('id');
    table.string('execution_id').notNullable().references('id').inTable('workflow_executions').onDelete('CASCADE');
    table.string('step_id').notNullable();
    table.integer('step_number').notNullable();
    table.string('name').notNullable();
    table.string('tool_type').notNullable();
    table.string('tool_id').notNullable();
    table.string('status').notNullable();
    table.text('input');
    table.text('output');
    table.text('error');
    table.integer('attempts').notNullable().defaultTo(0);
    table.string('started_at');
    table.string('completed_at');
    table.integer('duration_ms');
    table.unique(['execution_id', 'step_id']);
  });
  await db.schema.createTable('user_tools', (table) => {
    table.string('id').primary();
    table.string('name').notNullable();
    table.text('description');
    table.string('system_tool_id').notNullable();
    table.text('configuration').notNullable();
    table.text('tags');
    table.boolean('is_active').notNullable().defaultTo(true);
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['system_tool_id']);
  });
  await db.schema.createTable('tool_calls', (table) => {
    table.increments('id');
    table.string('tool_type').notNullable();
    table.string('tool_id').notNullable();
    table.string('execution_id');
    table.boolean('success').notNullable();
    table.integer('duration_ms').notNullable();
    table.text('error');
    table.string('called_at').notNullable();
    table.index(['tool_type', 'tool_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'tool_calls',
    'user_tools',
    'workflow_step_runs',
    'workflow_executions',
    'triggers',
    'workflow_steps',
    'workflows',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
}
