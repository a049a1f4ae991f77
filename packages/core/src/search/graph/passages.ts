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
 * A source's title has aliases too (its opening sentence's other names for it: "Onika Maraj, known
 * professionally as Nicki Minaj"); each is known like the title, unless two sources claim it. And
 * documents link each other (Markdown, wiki and HTML links, `sources/links/`): each resolved link is a
 * `links` edge from the linking passage to the target's first passage.
 *
 * Cached per entity adjacency and checked per query against a fingerprint: the graph's change
 * counters (a node, edge, node-source or source write), the newest citation and chunk rowids (every
 * commit adds citations, every ingest chunks), the latest change of a source (its title) and the newest
 * recorded link and name. A citation deleted with no such write leaves a stale mention
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
import { documentLinkStamp, resolvedDocumentLinks, titleAliasRows } from '../read-model/document-links.ts';
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
  /** A source title's or title alias's key (`titleKey`) → the passage index of the source's first chunk. */
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
  const [stamps, links] = await Promise.all([passageStamps(db), documentLinkStamp(db)]);
  return `${version.structure}:${version.scope}:${stamps.cited ?? 0}:${stamps.chunks ?? 0}:${stamps.sources ?? ''}:${links}`;
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
  /** Passage links: `linkFrom[i]` → `linkTo[i]`, each pair once. */
  readonly linkFrom: number[] = [];
  readonly linkTo: number[] = [];
  private readonly linked = new Set<string>();

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

  link(from: number, to: number): void {
    const pair = `${from} ${to}`;
    if (from === to || this.linked.has(pair)) return;
    this.linked.add(pair);
    this.linkFrom.push(from);
    this.linkTo.push(to);
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

type FirstChunks = Map<string, string>;

/** A key → the passage known by it, keys two sources claim left out. */
function uniqueKeys(claims: [string, number][]): Map<string, number> {
  const known = new Map<string, number>();
  const claimed = new Set<string>();
  for (const [key, passage] of claims) {
    if (claimed.has(key)) continue;
    const held = known.get(key);
    if (held === undefined) known.set(key, passage);
    else if (held !== passage) {
      known.delete(key);
      claimed.add(key);
    }
  }
  return known;
}

/**
 * Every source's first chunk (`firsts`, source id → chunk id), known by the source's title and by the
 * aliases of the title no other source claims, and linked to the extracted entities of those names.
 */
async function addTitles(
  db: Db,
  entities: GraphAdjacency,
  builder: PassageBuilder,
  firsts: FirstChunks,
  titled: { source_id: string; title: string }[],
): Promise<Map<string, number>> {
  const titles = new Map<string, number>();
  for (const first of titled) {
    const key = titleKey(first.title);
    if (key && !titles.has(key)) titles.set(key, builder.passage(firsts.get(first.source_id)!, first.source_id));
  }
  const aliases = (await titleAliasRows(db)).filter((row) => firsts.has(row.source_id));
  const claims = aliases.map((row): [string, number] => [
    titleKey(row.name),
    builder.passage(firsts.get(row.source_id)!, row.source_id),
  ]);
  for (const [key, passage] of uniqueKeys(claims)) if (key && !titles.has(key)) titles.set(key, passage);
  if (!titles.size) return titles;
  const named = await extractedNodesNamed(db, [...titles.keys()]);
  for (const node of named) {
    const entity = entities.index.get(node.id);
    if (entity !== undefined) builder.mention(entity, titles.get(node.name_key)!);
  }
  return titles;
}

/** Every resolved link between documents: the linking passage to the target's first passage. */
async function addLinks(db: Db, builder: PassageBuilder, firsts: FirstChunks): Promise<void> {
  for (const link of await resolvedDocumentLinks(db)) {
    const target = firsts.get(link.target_id);
    if (target === undefined) continue;
    builder.link(builder.passage(link.chunk_id, link.source_id), builder.passage(target, link.target_id));
  }
}

/** The entity edges (each once, leaving its source), then the mentions, then the links between passages. */
async function loadPassageGraph(db: Db, entities: GraphAdjacency): Promise<PassageGraph> {
  const entityCount = entities.nodeCount;
  const builder = new PassageBuilder(entityCount);
  await addCitations(db, entities, builder);
  const titled = await firstChunksOfSources(db);
  const firsts: FirstChunks = new Map(titled.map((first) => [first.source_id, first.id]));
  const titles = await addTitles(db, entities, builder, firsts, titled);
  await addLinks(db, builder, firsts);

  const mentionLabel = entities.labels.length;
  const linkLabel = mentionLabel + 1;
  const edgeTotal = entities.edgeCount + builder.entities.length + builder.linkFrom.length;
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
  for (let i = 0; i < builder.linkFrom.length; i++) {
    from[e] = entityCount + builder.linkFrom[i];
    to[e] = entityCount + builder.linkTo[i];
    labels[e++] = linkLabel;
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
