import type { Knex } from 'knex';

/**
 * Chats (the `Chat` and `Message` objects of packages/contracts/src/api/chats.ts): conversations, their messages in insertion order, and the
 * tool calls of a running turn that wait for the operator's approval.
 *
 * A turn is identified by `current_turn_id`, written together with the user message and the move to
 * `processing`; the worker persists its answer only while the chat is still on that turn, so a
 * cancelled or superseded turn can never write into a newer one. `current_task_id` is the queued task
 * answering it (cancel, and reconciling chats whose task ended without them).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('chats', (table) => {
    table.string('id').primary();
    table.string('title').notNullable();
    // active, processing, completed, error
    table.string('status').notNullable();
    // JSON array of source ids; null when unscoped.
    table.text('source_ids');
    table.string('current_turn_id');
    table.string('current_task_id');
    table.text('last_error');
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['status']);
    table.index(['updated_at']);
  });
  await db.schema.createTable('chat_messages', (table) => {
    // The rowid orders messages: timestamps of messages written in one transaction may be equal.
    table.increments('seq');
    table.string('id').notNullable().unique();
    table.string('chat_id').notNullable().references('id').inTable('chats').onDelete('CASCADE');
    table.string('role').notNullable();
    table.text('content').notNullable();
    table.string('timestamp').notNullable();
    table.text('extra_metadata');
    table.index(['chat_id', 'seq']);
  });
  await db.schema.createTable('chat_tool_approvals', (table) => {
    table.string('chat_id').notNullable().references('id').inTable('chats').onDelete('CASCADE');
    table.string('tool_call_id').notNullable();
    table.string('turn_id').notNullable();
    table.string('tool_name').notNullable();
    table.text('arguments').notNullable();
    // pending → approved | rejected | expired; the first move away from pending wins.
    table.string('status').notNullable();
    table.string('created_at').notNullable();
    table.string('decided_at');
    table.primary(['chat_id', 'tool_call_id']);
  });
}

export async function down(): Promise<void> {}
