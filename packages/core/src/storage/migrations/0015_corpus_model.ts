import type { Knex } from 'knex';

/**
 * The corpus model of semantic search with the builtin embedder (search/vectors/corpus): what the
 * database's own chunks say about their words. `corpus_terms` holds, per word, the number of chunks it
 * occurs in and its context vector (the sum of the random index vectors of the chunks it occurs in, as
 * float32); `corpus_state` its one row: the random seed of the index vectors, the chunks learned (count,
 * and the highest chunk rowid learned), and the chunk count when every vector was last made anew.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    'CREATE TABLE corpus_terms (term TEXT PRIMARY KEY, documents INTEGER NOT NULL, context BLOB NOT NULL) WITHOUT ROWID',
  );
  await db.raw(`CREATE TABLE corpus_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seed INTEGER NOT NULL,
    documents INTEGER NOT NULL,
    learned_through INTEGER NOT NULL,
    refreshed_documents INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  )`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('corpus_state');
  await db.schema.dropTable('corpus_terms');
}
