/**
 * Search's read model of the links between documents, for graph search. It reads the sources feature's
 * `document_links` (the links each chunk makes, under their target's key) and `source_names` (the names
 * a source may be linked by, under the same keys; migration 0014). Only reads happen here.
 */
import { selectRows, type Db } from '../../storage/index.ts';

/** The newest keys of both tables (a link's id is its rowid): a link or a name recorded moves them. */
export async function documentLinkStamp(db: Db): Promise<string> {
  const [row] = await selectRows<{ links: number | null; names: number | null }>(
    db,
    'SELECT (SELECT max(id) FROM document_links) AS links, (SELECT max(rowid) FROM source_names) AS names',
  );
  return `${row?.links ?? 0}.${row?.names ?? 0}`;
}

/** The aliases recorded for the sources' titles. */
export async function titleAliasRows(db: Db): Promise<{ source_id: string; name: string }[]> {
  return selectRows<{ source_id: string; name: string }>(
    db,
    "SELECT source_id, name FROM source_names WHERE kind = 'alias'",
  );
}

/**
 * Every link that resolves to another source: the linking chunk and the target source. A link whose key
 * several sources hold resolves to those holding it as the most specific kind of name (an address, then
 * a file name, a title, an alias), so `[[Paris]]` prefers the page titled so over one merely aliased so.
 */
export async function resolvedDocumentLinks(
  db: Db,
): Promise<{ chunk_id: string; source_id: string; target_id: string }[]> {
  return selectRows<{ chunk_id: string; source_id: string; target_id: string }>(
    db,
    `WITH matched AS (
       SELECT l.id, l.chunk_id, l.source_id, n.source_id AS target_id,
              CASE n.kind WHEN 'url' THEN 0 WHEN 'file' THEN 1 WHEN 'title' THEN 2 ELSE 3 END AS rank
       FROM document_links l JOIN source_names n ON n.name_key = l.target_key
       WHERE n.source_id <> l.source_id),
     best AS (SELECT id, min(rank) AS rank FROM matched GROUP BY id)
     SELECT DISTINCT m.chunk_id, m.source_id, m.target_id FROM matched m JOIN best b ON b.id = m.id AND b.rank = m.rank`,
  );
}
