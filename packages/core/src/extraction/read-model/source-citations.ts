/**
 * What the citations listing of a source reads of the graph feature's tables (`graph_nodes`, `graph_templates`):
 * each cited entity's label and type.
 */
import type { Db } from '../../storage/index.ts';

/** One citation of a source: which entity it attributes to which chunk, with the entity's label and type. */
export interface SourceCitation {
  id: string;
  entity_uri: string;
  entity_label: string;
  entity_type: string;
  source_id: string;
  chunk_id: string | null;
  confidence: number;
  extraction_method: string;
  context_snippet: string | null;
  created_at: string;
}

/** A page of the citations a source holds (GET /sources/{id}/citations), oldest first, and how many it holds. */
export async function sourceCitations(
  db: Db,
  sourceId: string,
  window: { offset: number; limit: number },
): Promise<{ items: SourceCitation[]; total: number }> {
  const scoped = () => db('source_citations as c').where('c.source_id', sourceId);
  const [rows, count] = await Promise.all([
    scoped()
      .join('graph_nodes as n', 'n.id', 'c.entity_uri')
      .join('graph_templates as t', 't.id', 'n.template_id')
      .select(
        'c.id',
        'c.entity_uri',
        'n.label as entity_label',
        't.name as entity_type',
        'c.source_id',
        'c.chunk_id',
        'c.confidence',
        'c.extraction_method',
        'c.context_snippet',
        'c.created_at',
      )
      .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }])
      .offset(window.offset)
      .limit(window.limit),
    scoped().count({ n: '*' }).first(),
  ]);
  return { items: rows as SourceCitation[], total: Number(count?.n ?? 0) };
}
