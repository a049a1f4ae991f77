import type { Db } from '../storage/index.ts';

export interface SourceGroup {
  source_id: string;
  title: string;
  source_type: string;
  filename: string | null;
  extraction_domain: string | null;
  /** No domain catalogue with icons exists yet; null until one does. */
  extraction_domain_icon: string | null;
  entity_count: number;
  entity_node_ids: string[];
}

interface SourceRow {
  id: string;
  title: string | null;
  source_type: string;
  filename: string | null;
  extraction_domain: string | null;
}

/**
 * The entities extracted from each committed image source (spec Part B "Source group"): the nodes the
 * source owns (graph_nodes.source_id) plus the nodes it is cited for (source_citations), once each.
 * Sources with no entity are left out.
 */
export async function sourceGroups(db: Db): Promise<{ groups: SourceGroup[] }> {
  const sources = (await db.raw(
    "SELECT id, title, source_type, filename, extraction_domain FROM sources WHERE source_type = 'image' AND status = 'committed' ORDER BY created_at, id",
  )) as SourceRow[];
  if (!sources.length) return { groups: [] };
  const idsJson = JSON.stringify(sources.map((source) => source.id));
  const links = (await db.raw(
    `SELECT source_id, id AS node_id FROM graph_nodes WHERE source_id IN (SELECT value FROM json_each(?))
     UNION
     SELECT source_id, entity_uri AS node_id FROM source_citations WHERE source_id IN (SELECT value FROM json_each(?))
     ORDER BY 1, 2`,
    [idsJson, idsJson],
  )) as { source_id: string; node_id: string }[];
  const bySource = new Map<string, string[]>();
  for (const link of links) {
    const list = bySource.get(link.source_id);
    if (list) list.push(link.node_id);
    else bySource.set(link.source_id, [link.node_id]);
  }
  const groups: SourceGroup[] = [];
  for (const source of sources) {
    const nodeIds = bySource.get(source.id);
    if (!nodeIds?.length) continue;
    groups.push({
      source_id: source.id,
      title: source.title ?? source.filename ?? source.id,
      source_type: source.source_type,
      filename: source.filename,
      extraction_domain: source.extraction_domain,
      extraction_domain_icon: null,
      entity_count: nodeIds.length,
      entity_node_ids: nodeIds,
    });
  }
  return { groups };
}
