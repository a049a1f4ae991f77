import type { Knex } from 'knex';

/**
 * The chunk index gains a `title` column: every chunk is indexed with its source's title (its file
 * name when it has none), so keyword search can weight a title match above a match in the text, as
 * BM25F weights a document's title field. A page about "Frank Lloyd" is then found by the name even
 * in the chunks whose text never repeats it.
 *
 * The index is rebuilt with the column filled from the chunks and their sources. The insert trigger
 * reads the title of the chunk's source; a source whose title or file name changes re-indexes its
 * chunks' titles (FTS5 updates a row by deleting and re-inserting it).
 */
const sourceTitle = (sourceId: string) =>
  `(SELECT COALESCE(s.title, s.filename, '') FROM sources s WHERE s.id = ${sourceId})`;

async function rebuildIndex(db: Knex, columns: string, select: string): Promise<void> {
  await db.raw('DROP TRIGGER document_chunks_index');
  await db.raw('DROP TABLE fts_chunks');
  await db.raw(`CREATE VIRTUAL TABLE fts_chunks USING fts5(${columns}, tokenize = 'porter unicode61')`);
  await db.raw(`INSERT INTO fts_chunks (rowid, ${columns}) ${select}`);
}

export async function up(db: Knex): Promise<void> {
  await rebuildIndex(
    db,
    'content, title',
    `SELECT c.rowid, c.content, ${sourceTitle('c.source_id')} FROM document_chunks c ORDER BY c.rowid`,
  );
  await db.raw(
    `CREATE TRIGGER document_chunks_index AFTER INSERT ON document_chunks BEGIN
       INSERT INTO fts_chunks (rowid, content, title) VALUES (NEW.rowid, NEW.content, ${sourceTitle('NEW.source_id')});
     END`,
  );
  await db.raw(
    `CREATE TRIGGER sources_title_index AFTER UPDATE OF title, filename ON sources
     WHEN COALESCE(NEW.title, NEW.filename, '') IS NOT COALESCE(OLD.title, OLD.filename, '') BEGIN
       UPDATE fts_chunks SET title = COALESCE(NEW.title, NEW.filename, '')
       WHERE rowid IN (SELECT rowid FROM document_chunks WHERE source_id = NEW.id);
     END`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER sources_title_index');
  await rebuildIndex(db, 'content', 'SELECT rowid, content FROM document_chunks ORDER BY rowid');
  await db.raw(
    'CREATE TRIGGER document_chunks_index AFTER INSERT ON document_chunks BEGIN INSERT INTO fts_chunks (rowid, content) VALUES (NEW.rowid, NEW.content); END',
  );
}
