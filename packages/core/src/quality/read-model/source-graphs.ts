/**
 * What scoring reads of other features' tables: the sources feature's `sources`; the graph's
 * `node_sources`, `graph_nodes`, `graph_templates`, `edge_sources`, `graph_edges`; extraction's
 * `source_citations` and `relationship_citations`. A corpus is scored in a few aggregate statements per
 * batch of sources, which no feature's face could give row by row.
 */
import { perDialect, selectRows, type Db } from '../../storage/index.ts';
import type { SourceGraph } from '../score-source.ts';

/**
 * Keys a commit adds to an extracted node's properties (extraction/commit/commit.ts `newProperties`);
 * every other key is one of the entity's own properties.
 */
const bookkeepingKeys = [
  'description',
  'aliases',
  'confidence',
  'extraction_domain',
  'type_normalized_from',
  'definition',
];
/** The most sources `loadSourceGraphs` takes at once: few statements for a whole corpus, bounded memory per round. */
export const graphBatchSize = 200;

interface SourceRow {
  id: string;
  title: string | null;
  extraction_domain: string | null;
  chunk_count: number;
}
/** One row per source, its items packed as a JSON array: one string per source instead of one driver row per item. */
interface PackedRow {
  source_id: string;
  items: string;
}
type PackedEntity = [
  id: string,
  name: string,
  type: string,
  descriptionLength: number,
  aliasCount: number,
  propertyCount: number,
  chunkCount: number,
  confidence: number,
];
type PackedRelationship = [
  sourceNodeId: string,
  targetNodeId: string,
  type: string,
  justificationLength: number,
  confidence: number,
];

const marks = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * Each source's entities packed as one JSON array of `PackedEntity`, for `count` sources bound after the
 * bookkeeping keys. PostgreSQL reads the `text` properties as `json`, and keeps each stored confidence as
 * the JSON value it is, as SQLite's `json_extract` does (a string stays a string; `Number()` reads it).
 */
const packedEntities = perDialect<[count: number], string>({
  sqlite: (_db, count) =>
    `SELECT ns.source_id, json_group_array(json_array(n.id, n.label, t.name,
       COALESCE(length(json_extract(n.properties, '$.description')), 0),
       COALESCE(json_array_length(n.properties, '$.aliases'), 0),
       (SELECT COUNT(*) FROM json_each(n.properties) WHERE key NOT IN (${marks(bookkeepingKeys.length)})),
       (SELECT COUNT(DISTINCT c.chunk_id) FROM source_citations c WHERE c.source_id = ns.source_id AND c.entity_uri = ns.node_id),
       COALESCE((SELECT MAX(c.confidence) FROM source_citations c WHERE c.source_id = ns.source_id AND c.entity_uri = ns.node_id), json_extract(n.properties, '$.confidence'), 0)
     )) AS items
     FROM node_sources ns JOIN graph_nodes n ON n.id = ns.node_id JOIN graph_templates t ON t.id = n.template_id
     WHERE ns.source_id IN (${marks(count)}) GROUP BY ns.source_id`,
  postgres: (_db, count) =>
    `SELECT ns.source_id, json_agg(json_build_array(n.id, n.label, t.name,
       COALESCE(length(p.value ->> 'description'), 0),
       CASE WHEN json_typeof(p.value -> 'aliases') = 'array' THEN json_array_length(p.value -> 'aliases') ELSE 0 END,
       (SELECT COUNT(*) FROM json_object_keys(p.value) AS key WHERE key NOT IN (${marks(bookkeepingKeys.length)})),
       (SELECT COUNT(DISTINCT c.chunk_id) FROM source_citations c WHERE c.source_id = ns.source_id AND c.entity_uri = ns.node_id),
       COALESCE(to_json((SELECT MAX(c.confidence) FROM source_citations c WHERE c.source_id = ns.source_id AND c.entity_uri = ns.node_id)), p.value -> 'confidence', to_json(0))
     ))::text AS items
     FROM node_sources ns JOIN graph_nodes n ON n.id = ns.node_id JOIN graph_templates t ON t.id = n.template_id
       CROSS JOIN LATERAL (SELECT n.properties::json AS value) p
     WHERE ns.source_id IN (${marks(count)}) GROUP BY ns.source_id`,
});

/** Each source's relationships packed as one JSON array of `PackedRelationship`, for `count` sources. */
const packedRelationships = perDialect<[count: number], string>({
  sqlite: (_db, count) =>
    `SELECT es.source_id, json_group_array(json_array(e.source_node_id, e.target_node_id, e.label,
       COALESCE(length(json_extract(e.properties, '$.justification')), 0),
       COALESCE((SELECT MAX(rc.confidence) FROM relationship_citations rc WHERE rc.source_id = es.source_id AND rc.edge_id = es.edge_id), json_extract(e.properties, '$.confidence'), 0)
     )) AS items
     FROM edge_sources es JOIN graph_edges e ON e.id = es.edge_id
     WHERE es.source_id IN (${marks(count)}) GROUP BY es.source_id`,
  postgres: (_db, count) =>
    `SELECT es.source_id, json_agg(json_build_array(e.source_node_id, e.target_node_id, e.label,
       COALESCE(length(p.value ->> 'justification'), 0),
       COALESCE(to_json((SELECT MAX(rc.confidence) FROM relationship_citations rc WHERE rc.source_id = es.source_id AND rc.edge_id = es.edge_id)), p.value -> 'confidence', to_json(0))
     ))::text AS items
     FROM edge_sources es JOIN graph_edges e ON e.id = es.edge_id CROSS JOIN LATERAL (SELECT e.properties::json AS value) p
     WHERE es.source_id IN (${marks(count)}) GROUP BY es.source_id`,
});

/**
 * The committed graphs of the given sources (at most `graphBatchSize`) in two aggregate queries: each
 * source's entities (nodes via node_sources) and relationships (edges via edge_sources) with what the
 * formula needs, read from their properties in SQL; the distinct chunks and best confidence of the
 * source's own citations come from covering indexes (a node's or edge's stored confidence when the
 * source has no citation of it). Sources that do not exist are absent from the result; a node or edge
 * whose properties are not JSON makes the call throw.
 */
export async function loadSourceGraphs(db: Db, ids: string[]): Promise<SourceGraph[]> {
  const sources = (await db('sources')
    .whereIn('id', ids)
    .select('id', 'title', 'extraction_domain', 'chunk_count')) as SourceRow[];
  const entities = await selectRows<PackedRow>(db, packedEntities(db, ids.length), [...bookkeepingKeys, ...ids]);
  const relationships = await selectRows<PackedRow>(db, packedRelationships(db, ids.length), ids);

  const bySource = new Map<string, SourceGraph>(
    sources.map((source) => [
      source.id,
      {
        sourceId: source.id,
        title: source.title,
        domain: source.extraction_domain,
        chunkCount: source.chunk_count,
        entities: [],
        relationships: [],
      },
    ]),
  );
  const labels = new Map<string, string>();
  for (const row of entities) {
    const graph = bySource.get(row.source_id);
    for (const [id, name, type, descriptionLength, aliasCount, propertyCount, chunkCount, confidence] of JSON.parse(
      row.items,
    ) as PackedEntity[]) {
      labels.set(id, name);
      graph?.entities.push({
        id,
        name,
        type,
        descriptionLength,
        aliasCount,
        propertyCount,
        chunkCount,
        confidence: Number(confidence) || 0,
      });
    }
  }
  const packed = relationships.map((row) => ({
    sourceId: row.source_id,
    items: JSON.parse(row.items) as PackedRelationship[],
  }));
  await addOutsideLabels(
    db,
    labels,
    packed.flatMap((row) => row.items),
  );
  for (const { sourceId, items } of packed) {
    const graph = bySource.get(sourceId);
    for (const [sourceNodeId, targetNodeId, type, justificationLength, confidence] of items) {
      graph?.relationships.push({
        sourceNodeId,
        targetNodeId,
        type,
        sourceName: labels.get(sourceNodeId) ?? '',
        targetName: labels.get(targetNodeId) ?? '',
        justificationLength,
        confidence: Number(confidence) || 0,
      });
    }
  }
  return [...bySource.values()];
}

/** Labels of relationship endpoints that are no entity of the loaded sources (nodes only other sources hold): rare, fetched by id. */
async function addOutsideLabels(
  db: Db,
  labels: Map<string, string>,
  relationships: PackedRelationship[],
): Promise<void> {
  const missing = new Set<string>();
  for (const [sourceNodeId, targetNodeId] of relationships) {
    if (!labels.has(sourceNodeId)) missing.add(sourceNodeId);
    if (!labels.has(targetNodeId)) missing.add(targetNodeId);
  }
  const ids = [...missing];
  for (let start = 0; start < ids.length; start += 500) {
    const rows = (await db('graph_nodes')
      .whereIn('id', ids.slice(start, start + 500))
      .select('id', 'label')) as { id: string; label: string }[];
    for (const row of rows) labels.set(row.id, row.label);
  }
}
