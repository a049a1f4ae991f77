import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { entityNodeId, relationshipEdgeId, sameKindOfThing } from '../../graph/index.ts';
import {
  edgePropertiesById,
  insertEdges,
  insertNodes,
  linkEdgeSources,
  linkNodeSources,
  linkSourceTemplates,
  nodesByNameKey,
  rewriteEdges,
  rewriteNodes,
  type EdgeRewrite,
  type KeyedNode,
  type NewEdge,
  type NewNode,
} from '../../graph/index.ts';
import type { DomainDefinition } from '../../sources/index.ts';
import { pageAtOffset } from '../../sources/index.ts';
import type { Db } from '../../storage/index.ts';
import { normalizeNameKey as nameKey } from '../finalize/names.ts';
import type { Evidence, FinalEntity, FinalizeResult, FinalRelationship } from '../types.ts';
import { sentenceSeparator, snippetMaxChars } from '../citations.ts';
import { removeContribution } from './contributions.ts';
import { ensureTypeTemplates } from './templates.ts';
import { GENERIC_TYPES, typeKey } from '../finalize/entity-types.ts';
import { mergeNodeProperties, type NodeProperties } from './node-properties.ts';
import { chunkPages, type ChunkPages } from './read-model.ts';

export interface CommitInput {
  db: Db;
  database: string;
  sourceId: string;
  jobId: string;
  domain: DomainDefinition;
  result: FinalizeResult;
  /** `extraction_method` of the citations: `llm`, or `builtin` for the builtin provider. */
  method: string;
}

export interface CommitOutcome {
  nodesCreated: string[];
  /** Existing nodes (other sources' or made by hand) this commit added to. */
  nodesUpdated: string[];
  nodesMerged: number;
  edgesCreated: string[];
  edgesMerged: number;
  entityCitations: number;
  relationshipCitations: number;
  nodesRemoved: number;
  edgesRemoved: number;
}

const batch = 100;
const sha = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 24);

/**
 * Commits a finalised extraction in one transaction: the source's previous contribution is taken
 * back; each type finds its template (one per type, shared by every source); each entity is upserted
 * onto the node that already holds it (same normalised name and compatible type, from any source or made
 * by hand) or a new node with a stable id, each relationship onto its stable edge; citations are written with the
 * sentences that support them, and the templates the source now uses are linked to it. Nodes are
 * full-text indexed in the same transaction.
 */
export async function commitExtraction(input: CommitInput): Promise<CommitOutcome> {
  const { db, sourceId, result } = input;
  const now = new Date().toISOString();
  return db.transaction(async (trx) => {
    const removed = await removeContribution(trx, sourceId);
    const templates = await ensureTypeTemplates(trx, input.domain, result, now);
    const nodes = await upsertNodes(trx, input, templates.node, now);
    const edges = await upsertEdges(trx, input, nodes.ids, templates.edge, now);
    await linkSourceTemplates(trx, sourceId);
    const entityCitations = await writeCitations(
      trx,
      'source_citations',
      'entity_uri',
      sourceId,
      input,
      result.entities.map((entity, index) => ({
        target: nodes.ids[index],
        confidence: entity.confidence,
        evidence: entity.evidence,
        metadata: { extracted_name: entity.name, extracted_type: entity.type },
      })),
      now,
    );
    const relationshipCitations = await writeCitations(
      trx,
      'relationship_citations',
      'edge_id',
      sourceId,
      input,
      result.relationships.flatMap((relationship, index) =>
        edges.ids[index]
          ? [
              {
                target: edges.ids[index]!,
                confidence: relationship.confidence,
                evidence: relationship.evidence,
                metadata: { justification: relationship.justification, extracted_type: relationship.type },
              },
            ]
          : [],
      ),
      now,
    );
    return {
      nodesCreated: nodes.created,
      nodesUpdated: nodes.updated,
      nodesMerged: nodes.updated.length,
      edgesCreated: edges.created,
      edgesMerged: edges.merged,
      entityCitations,
      relationshipCitations,
      nodesRemoved: removed.nodes.length,
      edgesRemoved: removed.edges.length,
    };
  });
}

const compatible = (a: string, b: string) =>
  typeKey(a) === typeKey(b) ||
  GENERIC_TYPES.has(typeKey(a)) ||
  GENERIC_TYPES.has(typeKey(b)) ||
  sameKindOfThing(typeKey(a), typeKey(b));

/** The node already holding an entity: its name's node of a compatible type first, then one named by an alias. */
function match(entity: FinalEntity, byKey: Map<string, KeyedNode[]>): KeyedNode | undefined {
  const named = byKey.get(entity.key)?.find((node) => compatible(node.template_name, entity.type));
  if (named) return named;
  for (const alias of entity.aliases) {
    const node = byKey
      .get(nameKey(alias))
      ?.find((candidate) => typeKey(candidate.template_name) === typeKey(entity.type));
    if (node) return node;
  }
  return undefined;
}

function newProperties(entity: FinalEntity, domain: string, templateId: string): NodeProperties {
  return {
    ...entity.properties,
    description: entity.description,
    aliases: entity.aliases,
    confidence: entity.confidence,
    extraction_domain: domain,
    ...(entity.typeNormalizedFrom ? { type_normalized_from: entity.typeNormalizedFrom } : {}),
    ...(templateId === 'system_template_item' ? { definition: entity.description || entity.name } : {}),
  };
}

async function upsertNodes(
  trx: Knex.Transaction,
  input: CommitInput,
  templateFor: (type: string) => string,
  now: string,
) {
  const { result, database, sourceId } = input;
  const keys = [...new Set(result.entities.flatMap((entity) => [entity.key, ...entity.aliases.map(nameKey)]))];
  const byKey = new Map<string, KeyedNode[]>();
  for (const node of await nodesByNameKey(trx, keys))
    byKey.set(node.name_key, [...(byKey.get(node.name_key) ?? []), node]);
  const ids: string[] = [];
  const inserted = new Map<string, NewNode & { properties: NodeProperties }>();
  const updated = new Map<string, { id: string; label: string; properties: NodeProperties }>();
  for (const entity of result.entities) {
    const existing = match(entity, byKey);
    const templateId = templateFor(entity.type);
    const incoming = newProperties(entity, input.domain.name, templateId);
    if (existing) {
      const current = updated.get(existing.id) ?? {
        id: existing.id,
        label: existing.label,
        properties: JSON.parse(existing.properties) as NodeProperties,
      };
      updated.set(existing.id, {
        ...current,
        properties: mergeNodeProperties(current.properties, incoming, current.label),
      });
      ids.push(existing.id);
      continue;
    }
    const id = entityNodeId(database, typeKey(entity.type), entity.key);
    const earlier = inserted.get(id);
    if (earlier) {
      earlier.properties = mergeNodeProperties(earlier.properties, incoming, earlier.label);
    } else {
      inserted.set(id, {
        id,
        template_id: templateId,
        label: entity.name,
        properties: incoming,
        name_key: entity.key,
        extracted: true,
        created_at: now,
        updated_at: now,
      });
    }
    ids.push(id);
  }
  await insertNodes(trx, [...inserted.values()], { skipExisting: true });
  await rewriteNodes(trx, [...updated.values()], now);
  await linkNodeSources(
    trx,
    [...new Set(ids)].map((nodeId) => ({ node_id: nodeId, source_id: sourceId })),
  );
  return { ids, created: [...inserted.keys()], updated: [...updated.keys()] };
}

function edgeProperties(relationship: FinalRelationship, domain: string): Record<string, unknown> {
  return {
    confidence: relationship.confidence,
    justification: relationship.justification,
    extraction_domain: domain,
    ...(relationship.directionCorrected ? { direction_corrected: true } : {}),
    ...(relationship.inverseOf ? { inverse_of: relationship.inverseOf } : {}),
  };
}

async function upsertEdges(
  trx: Knex.Transaction,
  input: CommitInput,
  nodeIds: string[],
  templateFor: (type: string) => string,
  now: string,
) {
  const { result, database, sourceId } = input;
  const ids: (string | null)[] = [];
  const wanted = new Map<string, NewEdge>();
  for (const relationship of result.relationships) {
    const source = nodeIds[relationship.sourceIndex];
    const target = nodeIds[relationship.targetIndex];
    // Two entities the graph already held as one node: the relationship would be a self-loop.
    if (!source || !target || source === target) {
      ids.push(null);
      continue;
    }
    const id = relationshipEdgeId(database, typeKey(relationship.type), source, target);
    ids.push(id);
    const properties = edgeProperties(relationship, input.domain.name);
    const earlier = wanted.get(id);
    if (earlier) {
      earlier.properties.confidence = Math.max(Number(earlier.properties.confidence), relationship.confidence);
      continue;
    }
    wanted.set(id, {
      id,
      template_id: templateFor(relationship.type),
      source_node_id: source,
      target_node_id: target,
      label: relationship.type,
      properties,
      extracted: true,
      created_at: now,
      updated_at: now,
    });
  }
  const all = [...wanted.keys()];
  const existing = await edgePropertiesById(trx, all);
  const created: NewEdge[] = [];
  const rewritten: EdgeRewrite[] = [];
  for (const [id, edge] of wanted) {
    const current = existing.get(id);
    if (!current) {
      created.push(edge);
      continue;
    }
    const confidence = Math.max(Number(current.confidence ?? 0), Number(edge.properties.confidence));
    rewritten.push({ id, properties: { ...edge.properties, ...current, confidence } });
  }
  await rewriteEdges(trx, rewritten, now);
  await insertEdges(trx, created);
  await linkEdgeSources(
    trx,
    all.map((edgeId) => ({ edge_id: edgeId, source_id: sourceId })),
  );
  return { ids, created: created.map((edge) => edge.id), merged: rewritten.length };
}

interface Cited {
  target: string;
  confidence: number;
  evidence: Evidence[];
  metadata: Record<string, unknown>;
}

/** The page a supporting sentence is on. The model saw a content-filtered copy, so the sentence is found in the stored chunk first. */
function sentencePage(chunk: ChunkPages | undefined, evidence: Evidence): number | null {
  if (!chunk) return null;
  if (!chunk.pageStarts) return chunk.page;
  const found = chunk.content.indexOf(evidence.sentence);
  return pageAtOffset(chunk, found >= 0 ? found : evidence.start);
}

/**
 * One citation per (cited item, chunk): the context snippet is rebuilt from the supporting sentences
 * of that chunk; their offsets within the chunk, and the page the first of them is on, go in
 * `citation_metadata`.
 */
async function writeCitations(
  trx: Knex.Transaction,
  table: string,
  targetColumn: string,
  sourceId: string,
  input: CommitInput,
  items: Cited[],
  now: string,
): Promise<number> {
  const rows = new Map<string, Record<string, unknown>>();
  const chunks = await chunkPages(
    trx,
    items.flatMap((item) => item.evidence.map((evidence) => evidence.chunkId)),
  );
  for (const item of items) {
    const byChunk = new Map<string, Evidence[]>();
    for (const evidence of item.evidence)
      byChunk.set(evidence.chunkId, [...(byChunk.get(evidence.chunkId) ?? []), evidence]);
    for (const [chunkId, sentences] of byChunk) {
      const id = `cit_${sha(`${table}:${sourceId}:${item.target}:${chunkId}`)}`;
      if (rows.has(id)) continue;
      const ordered = [...sentences].sort((a, b) => a.start - b.start);
      rows.set(id, {
        id,
        [targetColumn]: item.target,
        source_id: sourceId,
        chunk_id: chunkId,
        confidence: Math.min(1, Math.max(0, item.confidence)),
        extraction_method: input.method,
        context_snippet: ordered
          .map((sentence) => sentence.sentence)
          .join(sentenceSeparator)
          .slice(0, snippetMaxChars),
        citation_metadata: JSON.stringify({
          ...item.metadata,
          job_id: input.jobId,
          chunk_index: ordered[0].chunkIndex,
          page_number: sentencePage(chunks.get(chunkId), ordered[0]),
          sentences: ordered.map(({ start, end }) => ({ start, end })),
        }),
        created_at: now,
      });
    }
  }
  const all = [...rows.values()];
  for (let start = 0; start < all.length; start += batch) await trx(table).insert(all.slice(start, start + batch));
  return all.length;
}
