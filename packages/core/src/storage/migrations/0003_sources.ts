import type { Knex } from 'knex';

/**
 * Source ingestion: the full source row (upload options persisted for retry and re-extract, lifecycle
 * timestamps, progress, domain proposal, error stage), chunk offsets and hierarchical groups, the
 * chunk full-text index, chunk embeddings (the source of truth the vector index is rebuilt from),
 * source tags and per-database custom domains.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sources', (table) => {
    table.string('file_type');
    table.bigInteger('file_size');
    table.string('content_type');
    table.string('content_hash');
    table.string('stored_filename');
    // Upload options (the upload parameters of POST /sources); null means "auto" / "domain or global default".
    table.boolean('extract_entities').notNullable().defaultTo(true);
    table.string('analysis_depth').notNullable().defaultTo('full');
    table.string('forced_domain');
    table.boolean('auto_confirm').notNullable().defaultTo(false);
    table.boolean('enable_normalization');
    table.boolean('enable_vision');
    table.boolean('content_filtering').notNullable().defaultTo(true);
    table.string('filtering_mode');
    table.boolean('enable_direction_correction');
    table.boolean('protect_orphans');
    table.boolean('enable_inverse_relationships');
    table.integer('max_entity_degree_override');
    // Domain detection and the confirmation gate.
    table.text('detection_proposal');
    table.text('pending_confirmation');
    table.string('extraction_confirmed_at');
    table.string('extraction_queued_at');
    // Progress and lifecycle.
    table.string('current_step');
    table.string('step_description');
    table.string('error_stage');
    table.text('error_message');
    table.string('indexing_started_at');
    table.string('indexing_completed_at');
    table.string('extraction_started_at');
    table.string('extraction_completed_at');
    table.string('commit_started_at');
    table.string('commit_completed_at');
    table.string('last_activity_at');
    table.integer('recovery_attempts').notNullable().defaultTo(0);
    table.string('active_task_id');
    table.integer('chunk_count').notNullable().defaultTo(0);
    table.integer('embedded_chunk_count').notNullable().defaultTo(0);
    table.string('embedding_model');
    table.integer('embedding_dimensions');
    table.text('index_timings');
    table.text('loader_warnings');
    table.text('user_metadata').notNullable().defaultTo('{}');
    table.index(['status']);
    table.index(['content_hash']);
    table.index(['created_at']);
  });
  await db.schema.alterTable('document_chunks', (table) => {
    table.integer('start_offset');
    table.integer('end_offset');
    table.integer('original_start');
    table.integer('original_end');
    table.string('offset_match');
    table.integer('token_estimate');
  });
  await db.schema.createTable('chunk_groups', (table) => {
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.integer('group_index').notNullable();
    table.integer('first_chunk_index').notNullable();
    table.integer('last_chunk_index').notNullable();
    table.primary(['source_id', 'group_index']);
  });
  await db.schema.createTable('chunk_embeddings', (table) => {
    table.string('chunk_id').primary().references('id').inTable('document_chunks').onDelete('CASCADE');
    table.string('model').notNullable();
    table.integer('dimensions').notNullable();
    table.binary('vector').notNullable();
  });
  // Chunks are written once and deleted, never edited: the index shares their rowid and a trigger
  // removes index rows on every delete path (source delete cascade included).
  await db.raw("CREATE VIRTUAL TABLE fts_chunks USING fts5(content, tokenize = 'porter unicode61')");
  await db.raw(
    'CREATE TRIGGER document_chunks_index AFTER INSERT ON document_chunks BEGIN INSERT INTO fts_chunks (rowid, content) VALUES (NEW.rowid, NEW.content); END',
  );
  await db.raw(
    'CREATE TRIGGER document_chunks_unindex AFTER DELETE ON document_chunks BEGIN DELETE FROM fts_chunks WHERE rowid = OLD.rowid; END',
  );
  await db.schema.createTable('source_tags', (table) => {
    table.string('id').primary();
    table.string('name').notNullable().unique();
    table.string('color');
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
  });
  await db.schema.createTable('source_tag_links', (table) => {
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.string('tag_id').notNullable().references('id').inTable('source_tags').onDelete('CASCADE');
    table.primary(['source_id', 'tag_id']);
    table.index(['tag_id']);
  });
  await db.schema.createTable('custom_domains', (table) => {
    table.string('name').primary();
    table.text('definition').notNullable();
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
  });
}

export async function down(): Promise<void> {}
