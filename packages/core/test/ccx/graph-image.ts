import type { Db } from '../../src/storage/connection.ts';

/**
 * Everything an export must carry, in terms that survive new ids: templates, nodes, edges, sources,
 * chunks, citations, tags and provenance, each row named by content (labels, titles, chunk indexes)
 * instead of ids, sorted. Two databases with the same image hold the same knowledge.
 */
export async function graphImage(db: Db): Promise<Record<string, string[]>> {
  const rows = async (sql: string) =>
    ((await db.raw(sql)) as Record<string, unknown>[]).map((row) => JSON.stringify(row)).sort();
  const templateName = (alias: string) =>
    `${alias}.name || '@' || COALESCE((SELECT title FROM sources WHERE id = ${alias}.source_id), '-')`;
  return {
    templates: await rows(
      `SELECT t.name, t.template_type, t.description, t.icon, t.color, t.properties, ${templateName('t')} AS owner FROM graph_templates t WHERE t.is_system = 0`,
    ),
    nodes:
      await rows(`SELECT n.label, ${templateName('t')} AS template, n.properties, n.position_x, n.position_y, n.extracted, n.name_key, n.created_at, n.degree,
      (SELECT title FROM sources WHERE id = n.source_id) AS source,
      (SELECT group_concat(s.title) FROM (SELECT s.title FROM node_sources ns JOIN sources s ON s.id = ns.source_id WHERE ns.node_id = n.id ORDER BY s.title) s) AS sources
      FROM graph_nodes n JOIN graph_templates t ON t.id = n.template_id`),
    edges:
      await rows(`SELECT a.label AS source, b.label AS target, e.label, ${templateName('t')} AS template, e.properties, e.extracted,
      (SELECT group_concat(s.title) FROM (SELECT s.title FROM edge_sources es JOIN sources s ON s.id = es.source_id WHERE es.edge_id = e.id ORDER BY s.title) s) AS sources
      FROM graph_edges e JOIN graph_nodes a ON a.id = e.source_node_id JOIN graph_nodes b ON b.id = e.target_node_id JOIN graph_templates t ON t.id = e.template_id`),
    sources: await rows(
      'SELECT title, filename, source_type, origin_url, status, extraction_domain, user_metadata, chunk_count, created_at FROM sources',
    ),
    chunks: await rows(
      'SELECT s.title, c.chunk_index, c.content, c.page_number, c.section, c.chunk_metadata, c.start_offset, c.end_offset FROM document_chunks c JOIN sources s ON s.id = c.source_id',
    ),
    citations:
      await rows(`SELECT n.label, s.title, c.chunk_index, x.confidence, x.extraction_method, x.context_snippet, x.citation_metadata
      FROM source_citations x JOIN graph_nodes n ON n.id = x.entity_uri JOIN sources s ON s.id = x.source_id LEFT JOIN document_chunks c ON c.id = x.chunk_id`),
    relationship_citations:
      await rows(`SELECT a.label AS source, b.label AS target, e.label, s.title, c.chunk_index, x.confidence, x.context_snippet
      FROM relationship_citations x JOIN graph_edges e ON e.id = x.edge_id JOIN graph_nodes a ON a.id = e.source_node_id JOIN graph_nodes b ON b.id = e.target_node_id
      JOIN sources s ON s.id = x.source_id LEFT JOIN document_chunks c ON c.id = x.chunk_id`),
    tags: await rows(
      'SELECT s.title, t.name, t.color, t.description FROM source_tag_links l JOIN sources s ON s.id = l.source_id JOIN source_tags t ON t.id = l.tag_id',
    ),
    fts: await rows('SELECT label, body FROM fts_nodes'),
  };
}

export async function countsOf(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [
    'graph_templates',
    'graph_nodes',
    'graph_edges',
    'sources',
    'document_chunks',
    'source_citations',
    'relationship_citations',
    'source_tags',
    'source_tag_links',
    'fts_nodes',
    'node_embeddings',
    'chunk_vectors',
  ]) {
    counts[table] = Number(((await db.raw(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: number }[])[0].n);
  }
  return counts;
}
