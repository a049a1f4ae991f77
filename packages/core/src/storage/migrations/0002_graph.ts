import type { Knex } from 'knex';

/**
 * The knowledge graph: nodes and edges typed by templates, the sources they come from (the ingestion
 * feature adds its columns in later migrations), chunks and citations, the cached snapshot, and the
 * full-text index of nodes.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sources', (table) => {
    table.string('id').primary();
    table.string('title');
    table.string('filename');
    table.string('source_type').notNullable().defaultTo('text');
    table.string('origin_url');
    table.string('status').notNullable().defaultTo('pending');
    table.boolean('enabled').notNullable().defaultTo(true);
    table.string('extraction_domain');
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
  });
  await db.schema.createTable('document_chunks', (table) => {
    table.string('id').primary();
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.integer('chunk_index').notNullable();
    table.text('content').notNullable();
    table.integer('page_number');
    table.string('section');
    table.text('chunk_metadata');
    table.string('created_at').notNullable();
    table.index(['source_id', 'chunk_index']);
  });
  await db.schema.createTable('graph_nodes', (table) => {
    table.string('id').primary();
    table.string('template_id').notNullable().references('id').inTable('graph_templates').onDelete('RESTRICT');
    table.string('label').notNullable();
    table.text('properties').notNullable().defaultTo('{}');
    table.double('position_x');
    table.double('position_y');
    table.text('embedding');
    table.string('source_id').references('id').inTable('sources').onDelete('CASCADE');
    table.string('ccx_iri');
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    // Edges touching the node (a self-loop twice), kept by triggers: ranks the canvas backbone without counting.
    table.integer('degree').notNullable().defaultTo(0);
    table.index(['template_id']);
    table.index(['source_id']);
    table.index(['label']);
  });
  await db.raw('CREATE INDEX graph_nodes_degree ON graph_nodes (degree DESC, id)');
  await db.schema.createTable('graph_edges', (table) => {
    table.string('id').primary();
    table.string('template_id').notNullable().references('id').inTable('graph_templates').onDelete('RESTRICT');
    table.string('source_node_id').notNullable().references('id').inTable('graph_nodes').onDelete('CASCADE');
    table.string('target_node_id').notNullable().references('id').inTable('graph_nodes').onDelete('CASCADE');
    table.string('label').notNullable();
    table.text('properties').notNullable().defaultTo('{}');
    table.string('source_id').references('id').inTable('sources').onDelete('CASCADE');
    table.string('ccx_iri');
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['source_node_id']);
    table.index(['target_node_id']);
    table.index(['template_id']);
    table.index(['source_id']);
  });
  await db.schema.createTable('source_citations', (table) => {
    table.string('id').primary();
    table.string('entity_uri').notNullable().references('id').inTable('graph_nodes').onDelete('CASCADE');
    table.string('source_id').notNullable().references('id').inTable('sources').onDelete('CASCADE');
    table.string('chunk_id').references('id').inTable('document_chunks').onDelete('CASCADE');
    table.double('confidence').notNullable().defaultTo(1);
    table.string('extraction_method').notNullable().defaultTo('llm');
    table.text('context_snippet');
    table.text('citation_metadata');
    table.string('created_at').notNullable();
    table.index(['entity_uri']);
  });
  await db.schema.createTable('graph_snapshots', (table) => {
    table.integer('id').primary();
    table.text('payload_json').notNullable();
    table.integer('node_count').notNullable();
    table.integer('edge_count').notNullable();
    table.string('generated_at').notNullable();
  });
  // Index rows share the node's rowid: found without a scan, and removed by the trigger on every delete
  // path (API, template force delete, cleanup, source cascade).
  await db.raw(
    "CREATE VIRTUAL TABLE fts_nodes USING fts5(node_id UNINDEXED, label, body, tokenize = 'porter unicode61')",
  );
  await db.raw(
    'CREATE TRIGGER graph_nodes_unindex AFTER DELETE ON graph_nodes BEGIN DELETE FROM fts_nodes WHERE rowid = OLD.rowid; END',
  );
  await db.raw(`CREATE TRIGGER graph_edges_degree_insert AFTER INSERT ON graph_edges BEGIN
    UPDATE graph_nodes SET degree = degree + 1 WHERE id = NEW.source_node_id;
    UPDATE graph_nodes SET degree = degree + 1 WHERE id = NEW.target_node_id;
  END`);
  await db.raw(`CREATE TRIGGER graph_edges_degree_delete AFTER DELETE ON graph_edges BEGIN
    UPDATE graph_nodes SET degree = degree - 1 WHERE id = OLD.source_node_id;
    UPDATE graph_nodes SET degree = degree - 1 WHERE id = OLD.target_node_id;
  END`);
  await db.raw(`CREATE TRIGGER graph_edges_degree_move AFTER UPDATE OF source_node_id, target_node_id ON graph_edges BEGIN
    UPDATE graph_nodes SET degree = degree - 1 WHERE id = OLD.source_node_id;
    UPDATE graph_nodes SET degree = degree - 1 WHERE id = OLD.target_node_id;
    UPDATE graph_nodes SET degree = degree + 1 WHERE id = NEW.source_node_id;
    UPDATE graph_nodes SET degree = degree + 1 WHERE id = NEW.target_node_id;
  END`);
}

export async function down(): Promise<void> {}
