import type { Knex } from 'knex';

/**
 * Links between documents, found in the documents themselves at indexing time (`sources/links/`):
 * - `source_names`: the names a source may be linked by, each under the key links are matched on — its
 *   file name, its title, the aliases its first sentence gives the title, and the address it was
 *   fetched from;
 * - `document_links`: each link a chunk makes (a Markdown or wiki link, an HTML anchor), with the key of
 *   its target.
 * A link resolves to the sources holding a name under its key when the graph is read, so a link whose
 * target arrives later resolves then, and one whose target is deleted falls back to unresolved. Both
 * go with their source (and a link with its chunk, which re-indexing replaces).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TABLE source_names (
    source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    PRIMARY KEY (source_id, kind, name_key))`);
  await db.raw('CREATE INDEX source_names_name_key_index ON source_names (name_key)');
  await db.raw(`CREATE TABLE document_links (
    id INTEGER PRIMARY KEY,
    source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    chunk_id TEXT NOT NULL REFERENCES document_chunks(id) ON DELETE CASCADE,
    syntax TEXT NOT NULL,
    target TEXT NOT NULL,
    target_key TEXT NOT NULL,
    anchor TEXT NOT NULL)`);
  await db.raw('CREATE INDEX document_links_source_id_index ON document_links (source_id)');
  await db.raw('CREATE INDEX document_links_chunk_id_index ON document_links (chunk_id)');
  await db.raw('CREATE INDEX document_links_target_key_index ON document_links (target_key)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('document_links');
  await db.schema.dropTable('source_names');
}
