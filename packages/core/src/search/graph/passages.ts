/**
 * The retrieval graph: passages and entities in one graph (HippoRAG 2). The entity adjacency
 * (`adjacency.ts`) keeps its dense indices; every chunk some entity cites follows as a passage node,
 * linked to each entity citing it by a `mentions` edge. Personalized PageRank over this graph lets a
 * passage found by keyword or vector search hand its mass to the entities it mentions, and those to
 * the other passages mentioning them: the second hop of a multi-hop question.
 *
 * A source's title names what it is about ("Frank Lloyd.txt", "Apollo 11 mission notes"), so the
 * first passage of every source is a node too, known by its title (`titles`), and linked to the
 * extracted entity of that name when there is one, whether or not extraction cited it there: an
 * entity another document mentions then leads to the document about it.
 *
 * Cached per entity adjacency and checked per query against a fingerprint: the graph's change
 * counters (a node, edge, node-source or source write), the newest citation and chunk rowids (every
 * commit adds citations, every ingest chunks) and the latest change of a source (its title). A citation deleted with no such write leaves a stale mention
 * until the next one; it can only name a chunk that went away, which the hydration then leaves out.
 */
import type { Db } from '../../storage/index.ts';
import {
  extractedNodesNamed,
  firstChunksOfSources,
  passageStamps,
  scanCitedChunks,
  type GraphVersion,
} from '../read-model/graph-rows.ts';
import { buildAdjacencyGraph, type AdjacencyGraph, type GraphAdjacency } from './adjacency.ts';

export interface PassageGraph extends AdjacencyGraph {
  /** The entity adjacency it extends: dense indices below `entityCount` are its nodes. */
  entities: GraphAdjacency;
  entityCount: number;
  /** Passage node `entityCount + i` is chunk `chunkIds[i]`. */
  chunkIds: string[];
  chunkIndex: Map<string, number>;
  /** Per passage: index into `sources`, the chunk's source. */
  chunkSources: Int32Array;
  sources: string[];
  /** A source title's key (`titleKey`) → the passage index of the source's first chunk. */
  titles: Map<string, number>;
  /** Per entity: how many passages mention it (its specificity is the inverse). */
  entityPassages: Int32Array;
}

/** A title as a name: without a file extension, lower case. */
function titleKey(title: string): string {
  return title
    .trim()
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .trim()
    .toLowerCase();
}

/** What the citations and chunks look like now: a rebuild is due when this moves. */
async function passageFingerprint(db: Db, version: GraphVersion): Promise<string> {
  const stamps = await passageStamps(db);
  return `${version.structure}:${version.scope}:${stamps.cited ?? 0}:${stamps.chunks ?? 0}:${stamps.sources ?? ''}`;
}

/** Passage nodes, interned in first-seen order, and the distinct (entity, passage) mentions. */
class PassageBuilder {
  readonly chunkIds: string[] = [];
  readonly chunkIndex = new Map<string, number>();
  readonly sources: string[] = [];
  private readonly sourceIndex = new Map<string, number>();
  readonly chunkSources: number[] = [];
  readonly entities: number[] = [];
  readonly passages: number[] = [];
  private readonly seen = new Set<number>();

  constructor(private readonly entityCount: number) {}

  passage(chunkId: string, sourceId: string): number {
    let chunk = this.chunkIndex.get(chunkId);
    if (chunk !== undefined) return chunk;
    chunk = this.chunkIds.length;
    this.chunkIndex.set(chunkId, chunk);
    this.chunkIds.push(chunkId);
    let source = this.sourceIndex.get(sourceId);
    if (source === undefined) {
      source = this.sources.length;
      this.sourceIndex.set(sourceId, source);
      this.sources.push(sourceId);
    }
    this.chunkSources.push(source);
    return chunk;
  }

  /** One mention per pair, however often the chunk cites the entity. */
  mention(entity: number, chunk: number): void {
    const pair = chunk * this.entityCount + entity;
    if (this.seen.has(pair)) return;
    this.seen.add(pair);
    this.entities.push(entity);
    this.passages.push(chunk);
  }
}

async function addCitations(db: Db, entities: GraphAdjacency, builder: PassageBuilder): Promise<void> {
  await scanCitedChunks(db, (batchEntities, batchChunks, batchSources) => {
    for (let i = 0; i < batchEntities.length; i++) {
      const entity = entities.index.get(batchEntities[i]);
      if (entity !== undefined) builder.mention(entity, builder.passage(batchChunks[i], batchSources[i]));
    }
  });
}

/** Every source's first chunk, known by the source's title, and linked to the extracted entity of that name. */
async function addTitles(db: Db, entities: GraphAdjacency, builder: PassageBuilder): Promise<Map<string, number>> {
  const firsts = await firstChunksOfSources(db);
  const titles = new Map<string, number>();
  for (const first of firsts) {
    const key = titleKey(first.title);
    if (key && !titles.has(key)) titles.set(key, builder.passage(first.id, first.source_id));
  }
  if (!titles.size) return titles;
  const named = await extractedNodesNamed(db, [...titles.keys()]);
  for (const node of named) {
    const entity = entities.index.get(node.id);
    if (entity !== undefined) builder.mention(entity, titles.get(node.name_key)!);
  }
  return titles;
}

/** The entity edges (each once, leaving its source), then the mentions. */
async function loadPassageGraph(db: Db, entities: GraphAdjacency): Promise<PassageGraph> {
  const entityCount = entities.nodeCount;
  const builder = new PassageBuilder(entityCount);
  await addCitations(db, entities, builder);
  const titles = await addTitles(db, entities, builder);

  const mentionLabel = entities.labels.length;
  const edgeTotal = entities.edgeCount + builder.entities.length;
  const from = new Int32Array(edgeTotal);
  const to = new Int32Array(edgeTotal);
  const labels = new Int32Array(edgeTotal);
  let e = 0;
  for (let v = 0; v < entityCount; v++) {
    for (let j = entities.offsets[v], end = entities.offsets[v + 1]; j < end; j++) {
      if (entities.codes[j] < 0) continue;
      from[e] = v;
      to[e] = entities.neighbors[j];
      labels[e++] = entities.codes[j];
    }
  }
  const entityPassages = new Int32Array(entityCount);
  for (let i = 0; i < builder.entities.length; i++) {
    from[e] = builder.entities[i];
    to[e] = entityCount + builder.passages[i];
    labels[e++] = mentionLabel;
    entityPassages[builder.entities[i]]++;
  }
  const graph = buildAdjacencyGraph(entityCount + builder.chunkIds.length, from, to, labels, e);
  return {
    ...graph,
    entities,
    entityCount,
    chunkIds: builder.chunkIds,
    chunkIndex: builder.chunkIndex,
    chunkSources: Int32Array.from(builder.chunkSources),
    sources: builder.sources,
    titles,
    entityPassages,
  };
}

const caches = new WeakMap<GraphAdjacency, { fingerprint: string; graph: Promise<PassageGraph> }>();

/** The passage graph over `entities`, rebuilt when the fingerprint moved; a failed build is not cached. */
export async function passageGraph(db: Db, entities: GraphAdjacency, version: GraphVersion): Promise<PassageGraph> {
  const fingerprint = await passageFingerprint(db, version);
  const cached = caches.get(entities);
  if (cached && cached.fingerprint === fingerprint) return cached.graph;
  const entry = { fingerprint, graph: loadPassageGraph(db, entities) };
  caches.set(entities, entry);
  entry.graph.catch(() => {
    if (caches.get(entities) === entry) caches.delete(entities);
  });
  return entry.graph;
}
