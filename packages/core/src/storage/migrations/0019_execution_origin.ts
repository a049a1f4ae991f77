import type { Knex } from 'knex';

/**
 * An execution records who started it (`workflow_executions.triggered_by`: "manual" or what the caller
 * named, "trigger", "workflow" for a nested run). Executions recorded earlier have none; their origin is
 * read from their trigger and parent.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_executions', (table) => {
    table.string('triggered_by');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_executions', (table) => {
    table.dropColumn('triggered_by');
  });
}

/** On PostgreSQL this revision creates the whole schema as it stands here (`dialect-bodies.ts`). */
export { postgresHead as postgres } from './postgres-head.ts';
