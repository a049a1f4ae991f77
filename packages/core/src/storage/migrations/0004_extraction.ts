import type { Knex } from 'knex';

/**
 * Extraction: jobs and their groups (each group's harvest kept as it finishes, so a crash or a failed
 * group never loses finished work), the finalised result awaiting commit, and what each source
 * contributed to the graph. Extracted nodes and edges are shared between sources (one node per entity,
 * with citations from every source naming it), so ownership is a join table rather than the row's
 * `source_id`; deleting a source removes only what no other source contributed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('extraction_jobs', (table) => {
    table.string('id').primary();
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    // queued → running → finalizing → committing → completed; or cancelled / failed.
    table.string('status').notNullable();
    table.string('depth').notNullable();
    table.string('domain').notNullable();
    table.text('options').notNullable();
    table.integer('total_groups').notNullable();
    table.integer('estimated_input_tokens').notNullable().defaultTo(0);
    table.integer('estimated_output_tokens').notNullable().defaultTo(0);
    table.double('estimated_cost_usd');
    table.text('result');
    table.text('stats');
    table.text('error_message');
    table.string('created_at').notNullable();
    table.string('started_at');
    table.string('finalized_at');
    table.string('completed_at');
    table.index(['source_id', 'created_at']);
  });
  await db.schema.createTable('extraction_groups', (table) => {
    table.string('job_id').notNullable().references('id').inTable('extraction_jobs').onDelete('CASCADE');
    table.integer('group_index').notNullable();
    table.integer('first_chunk_index').notNullable();
    table.integer('last_chunk_index').notNullable();
    // pending → queued → running → completed | failed | cancelled
    table.string('status').notNullable();
    table.string('task_id');
    table.integer('attempts').notNullable().defaultTo(0);
    table.text('harvest');
    table.integer('entity_count');
    table.integer('relationship_count');
    table.text('error_message');
    table.string('started_at');
    table.string('completed_at');
    table.integer('duration_ms');
    table.primary(['job_id', 'group_index']);
    table.index(['job_id', 'status']);
  });
  await db.schema.alterTable('sources', (table) => {
    table.string('extraction_job_id');
    table.integer('estimated_tokens');
    table.double('estimated_cost_usd');
  });
  await db.schema.alterTable('graph_nodes', (table) => {
    // The normalised label, for matching an extracted entity to the node that already holds it.
    table.string('name_key');
    table.boolean('extracted').notNullable().defaultTo(false);
    table.index(['name_key']);
  });
  await db.schema.alterTable('graph_edges', (table) => {
    table.boolean('extracted').notNullable().defaultTo(false);
  });
  await db.schema.createTable('node_sources', (table) => {
    table.string('node_id').notNullable().references('id').inTable('graph_nodes').onDelete('CASCADE');
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.primary(['node_id', 'source_id']);
    table.index(['source_id']);
  });
  await db.schema.createTable('edge_sources', (table) => {
    table.string('edge_id').notNullable().references('id').inTable('graph_edges').onDelete('CASCADE');
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.primary(['edge_id', 'source_id']);
    table.index(['source_id']);
  });
  await db.schema.createTable('relationship_citations', (table) => {
    table.string('id').primary();
    table.string('edge_id').notNullable().references('id').inTable('graph_edges').onDelete('CASCADE');
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.string('chunk_id').references('id').inTable('document_chunks').onDelete('CASCADE');
    table.double('confidence').notNullable().defaultTo(1);
    table.string('extraction_method').notNullable().defaultTo('llm');
    table.text('context_snippet');
    table.text('citation_metadata');
    table.string('created_at').notNullable();
    table.index(['edge_id']);
    table.index(['source_id']);
  });
  await db.schema.alterTable('source_citations', (table) => {
    table.index(['source_id']);
  });
}

export async function down(): Promise<void> {}
