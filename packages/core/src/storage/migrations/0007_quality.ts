import type { Knex } from 'knex';

/**
 * Cached quality scores, one row per scored source (removed with it). The full SourceQualityScore is
 * kept as JSON; the fields the quality endpoints filter, sort and average on are columns, so corpus
 * summaries are single aggregate queries. `cached_scores_version` is the formula version that computed
 * the row: rows of another version are outdated. Covering indexes let a source's citations be
 * aggregated per entity and per relationship without reading the citation rows.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('source_quality_scores', (table) => {
    table.string('source_id').primary().references('id').inTable('sources').onDelete('CASCADE');
    table.integer('cached_scores_version').notNullable();
    table.string('computed_at').notNullable();
    table.integer('entity_count').notNullable();
    table.integer('relationship_count').notNullable();
    table.double('total_score').notNullable();
    table.double('avg_entity_quality').notNullable();
    table.double('avg_relationship_quality').notNullable();
    table.double('connectivity_ratio').notNullable();
    table.double('quality_grade').notNullable();
    table.string('quality_label').notNullable();
    table.text('score').notNullable();
  });
  await db.raw(
    'CREATE INDEX source_citations_quality ON source_citations (source_id, entity_uri, chunk_id, confidence)',
  );
  await db.raw(
    'CREATE INDEX relationship_citations_quality ON relationship_citations (source_id, edge_id, confidence)',
  );
}

export async function down(): Promise<void> {}
