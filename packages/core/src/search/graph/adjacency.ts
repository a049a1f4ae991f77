/**
 * The graph held in compressed adjacency form, one per database, for graph search (docs/decisions/0024).
 *
 * Nodes are interned to dense ints in rowid order, edge labels to label ids. The edges are one
 * undirected CSR: every edge takes a slot in the row of each end (so 2 slots an edge), the slot
 * holding the other end and a code that keeps the direction: `label` for an edge leaving the row's
 * node, `~label` (negative) for one arriving. Undirected because Personalized PageRank walks edges both
 * ways (see `ppr.ts`) and one contiguous row per node is what its inner loop gathers over (rows sorted
 * by neighbour, so the gathers walk memory in order); the code keeps what triples need, a node's
 * outgoing and incoming edges with their labels. 1M edges take 16 MB of slots plus the offsets, the
 * node ids and their map: about 26 MB in all at 100k nodes.
 *
 * Built from SQL in one pass of keyset-paged batches; each batch comes back as JSON arrays aggregated
 * in SQLite (one row per batch), because materialising a million driver rows costs seconds while
 * `json_group_array` + `JSON.parse` cost a fraction of that. Cached per connection and checked per
 * query against the `graph_version` counters (migration 0006, kept by triggers on every write path),
 * so a commit or an API write is seen by the very next query and nothing else rebuilds it.
 */
import type { Db } from '../../storage/index.ts';
import { readGraphVersion, scanEdges, scanNodeTemplates, type GraphVersion } from '../read-model/graph-rows.ts';

/**
 * The undirected CSR: node `v`'s slots are `offsets[v]` … `offsets[v + 1] - 1`, each an edge touching
 * `v` (a self-loop twice, once each way).
 */
export interface AdjacencyGraph {
  nodeCount: number;
  offsets: Int32Array;
  /** The other end of each slot (dense node index); ascending within a row. */
  neighbors: Int32Array;
  /** Per slot: the label id of an edge leaving `v`, or `~labelId` (< 0) of an edge arriving at `v`. */
  codes: Int32Array;
}

/** The label id of a slot's code, and whether the edge leaves the row's node. */
export const labelOf = (code: number) => (code < 0 ? ~code : code);
export const isOutgoing = (code: number) => code >= 0;

export interface GraphAdjacency extends AdjacencyGraph {
  /** `graph_version.structure` when the build started (the adjacency holds at least that state). */
  structureVersion: number;
  edgeCount: number;
  /** Dense index → node id. */
  ids: string[];
  /** Node id → dense index. */
  index: Map<string, number>;
  /** Dense index → index into `templates`. */
  nodeTemplates: Int32Array;
  templates: string[];
  labels: string[];
  /** Approximate bytes held (typed arrays plus an estimate for the id strings and map). */
  bytes: number;
  buildMs: number;
}

/** A growable Int32 column for edges read before the node count of each CSR row is known. */
class IntColumn {
  data = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/**
 * The undirected CSR of `count` directed edges `sources[e] → targets[e]` labelled `labels[e]`: a
 * counting sort into rows in edge order, then a transpose, which reads rows in order and so leaves each
 * row sorted by neighbour (the adjacency is symmetric, so the transpose holds the same slots, with the
 * direction flipped as seen from the other end).
 */
export function buildAdjacencyGraph(
  nodeCount: number,
  sources: Int32Array,
  targets: Int32Array,
  labels: Int32Array,
  count = sources.length,
): AdjacencyGraph {
  const offsets = new Int32Array(nodeCount + 1);
  for (let e = 0; e < count; e++) {
    offsets[sources[e] + 1]++;
    offsets[targets[e] + 1]++;
  }
  for (let v = 0; v < nodeCount; v++) offsets[v + 1] += offsets[v];
  const slots = 2 * count;
  let cursor = offsets.slice(0, nodeCount);
  const firstNeighbors = new Int32Array(slots);
  const firstCodes = new Int32Array(slots);
  for (let e = 0; e < count; e++) {
    const out = cursor[sources[e]]++;
    firstNeighbors[out] = targets[e];
    firstCodes[out] = labels[e];
    const arriving = cursor[targets[e]]++;
    firstNeighbors[arriving] = sources[e];
    firstCodes[arriving] = ~labels[e];
  }
  cursor = offsets.slice(0, nodeCount);
  const neighbors = new Int32Array(slots);
  const codes = new Int32Array(slots);
  for (let v = 0; v < nodeCount; v++) {
    for (let j = offsets[v], end = offsets[v + 1]; j < end; j++) {
      const slot = cursor[firstNeighbors[j]]++;
      neighbors[slot] = v;
      codes[slot] = ~firstCodes[j];
    }
  }
  return { nodeCount, offsets, neighbors, codes };
}

function intern(table: Map<string, number>, list: string[], value: string): number {
  let id = table.get(value);
  if (id === undefined) {
    id = list.length;
    table.set(value, id);
    list.push(value);
  }
  return id;
}

/**
 * Reads the graph from SQL and builds its adjacency. Not one transaction (the build must not hold the
 * connection for seconds): a write landing mid-build may be half seen, but it bumped the version read
 * before the build, so the next query rebuilds. Edges naming a node not read are skipped for the same
 * reason.
 */
export async function loadAdjacency(db: Db, structureVersion: number): Promise<GraphAdjacency> {
  const started = performance.now();
  const ids: string[] = [];
  const index = new Map<string, number>();
  const templates: string[] = [];
  const templateIndex = new Map<string, number>();
  const nodeTemplateColumn = new IntColumn();
  await scanNodeTemplates(db, (batchIds, batchTemplates) => {
    for (let i = 0; i < batchIds.length; i++) {
      index.set(batchIds[i], ids.length);
      ids.push(batchIds[i]);
      nodeTemplateColumn.push(intern(templateIndex, templates, batchTemplates[i]));
    }
  });

  const labels: string[] = [];
  const labelIndex = new Map<string, number>();
  const from = new IntColumn();
  const to = new IntColumn();
  const label = new IntColumn();
  await scanEdges(db, (sources, targets, edgeLabels) => {
    for (let i = 0; i < sources.length; i++) {
      const s = index.get(sources[i]);
      const t = index.get(targets[i]);
      if (s === undefined || t === undefined) continue;
      from.push(s);
      to.push(t);
      label.push(intern(labelIndex, labels, edgeLabels[i]));
    }
  });

  const nodeCount = ids.length;
  const graph = buildAdjacencyGraph(nodeCount, from.data, to.data, label.data, from.length);
  const nodeTemplates = nodeTemplateColumn.data.slice(0, nodeCount);
  const typed =
    graph.offsets.byteLength + graph.neighbors.byteLength + graph.codes.byteLength + nodeTemplates.byteLength;
  // Id strings (header + one byte a character) and a map entry each: an estimate, not a measurement.
  const strings = ids.reduce((sum, id) => sum + 2 * (id.length + 24) + 40, 0);
  return {
    ...graph,
    structureVersion,
    edgeCount: from.length,
    ids,
    index,
    nodeTemplates,
    templates,
    labels,
    bytes: typed + strings,
    buildMs: performance.now() - started,
  };
}

interface CacheEntry {
  version: number;
  adjacency: Promise<GraphAdjacency>;
}

const caches = new WeakMap<Db, CacheEntry>();

/**
 * The adjacency of the database behind `db`, rebuilt only when `graph_version.structure` moved since it
 * was built. Concurrent callers of one version share one build; a failed build is not cached.
 */
export async function graphAdjacency(db: Db, version?: GraphVersion): Promise<GraphAdjacency> {
  const { structure } = version ?? (await readGraphVersion(db));
  const cached = caches.get(db);
  if (cached && cached.version === structure) return cached.adjacency;
  const entry: CacheEntry = { version: structure, adjacency: loadAdjacency(db, structure) };
  caches.set(db, entry);
  entry.adjacency.catch(() => {
    if (caches.get(db) === entry) caches.delete(db);
  });
  return entry.adjacency;
}

/** Drops the cached adjacency of `db` (closing a database; tests). */
export function forgetAdjacency(db: Db): void {
  caches.delete(db);
}
