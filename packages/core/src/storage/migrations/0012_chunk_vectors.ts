import type { Knex } from 'knex';

/**
 * Chunk vectors keyed by the chunk row's rowid: `chunk_vectors` replaces `chunk_embeddings`, whose key was
 * the chunk's text id (random, so every insert landed on a random page of its primary-key index) with a
 * foreign key checked on every row. The rowid is already the chunk's stable internal key: `fts_chunks`
 * and the chunk vector index label chunks by it. A new chunk's rowid is above every other, so indexing
 * appends its vectors at the end of the table.
 *
 * Without the foreign key, a trigger deletes a chunk's vector with the chunk, on every delete path (a
 * source's delete cascading to its chunks, re-indexing, a replacing import), as `document_chunks_unindex`
 * does for the full-text index. The (model, dimensions) index serves the orphan checks made before
 * every semantic search. Existing vectors are copied over.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    'CREATE TABLE chunk_vectors (chunk_rowid INTEGER PRIMARY KEY, model TEXT NOT NULL, dimensions INTEGER NOT NULL, vector BLOB NOT NULL)',
  );
  await db.raw(`INSERT INTO chunk_vectors (chunk_rowid, model, dimensions, vector)
    SELECT c.rowid, e.model, e.dimensions, e.vector FROM chunk_embeddings e JOIN document_chunks c ON c.id = e.chunk_id ORDER BY c.rowid`);
  await db.raw('CREATE INDEX chunk_vectors_model_dimensions_index ON chunk_vectors (model, dimensions)');
  await db.schema.dropTable('chunk_embeddings');
  await db.raw(
    'CREATE TRIGGER document_chunks_unvector AFTER DELETE ON document_chunks BEGIN DELETE FROM chunk_vectors WHERE chunk_rowid = OLD.rowid; END',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.createTable('chunk_embeddings', (table) => {
    table.string('chunk_id').primary().references('id').inTable('document_chunks').onDelete('CASCADE');
    table.string('model').notNullable();
    table.integer('dimensions').notNullable();
    table.binary('vector').notNullable();
    table.index(['model', 'dimensions']);
  });
  await db.raw(`INSERT INTO chunk_embeddings (chunk_id, model, dimensions, vector)
    SELECT c.id, v.model, v.dimensions, v.vector FROM chunk_vectors v JOIN document_chunks c ON c.rowid = v.chunk_rowid`);
  await db.raw('DROP TRIGGER document_chunks_unvector');
  await db.schema.dropTable('chunk_vectors');
}
