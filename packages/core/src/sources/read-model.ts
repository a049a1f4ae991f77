/**
 * Read model: what the source views and statistics show of the features built on sources, read here
 * because importing them would be a cycle (they import sources). It reads the graph module's
 * `node_sources`, `edge_sources`, `graph_nodes` and `graph_edges` (how many entities and relationships
 * sources contributed), the extraction module's `source_citations` (how many citations a source's chunks
 * carry) and the quality module's `source_quality_scores` (the cached grade and label).
 */
import type { QualityLabel } from '@rhizome/contracts/api/quality';
import type { Db } from '../storage/index.ts';

const lookupChunk = 500;

export interface GraphCounts {
  entities: number;
  relationships: number;
}

/** The entities and relationships each given source contributed. */
export async function graphCountsBySource(db: Db, sourceIds: string[]): Promise<Map<string, GraphCounts>> {
  const counts = new Map<string, GraphCounts>(sourceIds.map((id) => [id, { entities: 0, relationships: 0 }]));
  if (!sourceIds.length) return counts;
  const nodes: { source_id: string; n: number }[] = await db('node_sources')
    .whereIn('source_id', sourceIds)
    .groupBy('source_id')
    .select('source_id')
    .count({ n: '*' });
  const edges: { source_id: string; n: number }[] = await db('edge_sources')
    .whereIn('source_id', sourceIds)
    .groupBy('source_id')
    .select('source_id')
    .count({ n: '*' });
  for (const row of nodes) counts.get(row.source_id)!.entities = Number(row.n);
  for (const row of edges) counts.get(row.source_id)!.relationships = Number(row.n);
  return counts;
}

/** The entities and relationships all sources contributed. */
export async function contributedTotals(db: Db): Promise<{ total_entities: number; total_relationships: number }> {
  // Extraction's items are owned through node_sources / edge_sources; source_id names only a creating source.
  const [nodes, edges] = await Promise.all([
    db('graph_nodes')
      .whereNotNull('source_id')
      .orWhereIn('id', db('node_sources').select('node_id'))
      .count({ n: '*' })
      .first(),
    db('graph_edges')
      .whereNotNull('source_id')
      .orWhereIn('id', db('edge_sources').select('edge_id'))
      .count({ n: '*' })
      .first(),
  ]);
  return { total_entities: Number(nodes?.n ?? 0), total_relationships: Number(edges?.n ?? 0) };
}

/** The cached grade and label of each given source that has one. */
export async function cachedGrades(
  db: Db,
  sourceIds: string[],
): Promise<Map<string, { grade: number; label: QualityLabel }>> {
  const grades = new Map<string, { grade: number; label: QualityLabel }>();
  for (let start = 0; start < sourceIds.length; start += lookupChunk) {
    const rows = await db('source_quality_scores')
      .whereIn('source_id', sourceIds.slice(start, start + lookupChunk))
      .select('source_id', 'quality_grade', 'quality_label');
    for (const row of rows) grades.set(row.source_id, { grade: row.quality_grade, label: row.quality_label });
  }
  return grades;
}

/** How many entity citations the source's chunks carry. */
export async function citationCount(db: Db, sourceId: string): Promise<number> {
  const row = await db('source_citations')
    .whereIn('chunk_id', db('document_chunks').select('id').where({ source_id: sourceId }))
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}
