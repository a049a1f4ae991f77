import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import type { Db } from '../../storage/index.ts';
import { graphAdjacency, type AdjacencyGraph, type GraphAdjacency } from './adjacency.ts';
import { pageRank, topNodes } from './ppr.ts';

export interface GraphStructureOptions {
  /** Only nodes of these templates, and the edges between them; every node when empty. */
  templateIds?: string[];
  /** How many communities, central nodes and isolated nodes to name. */
  communities?: number;
  topNodes?: number;
  isolatedNodes?: number;
  /** Members named per community. */
  sampleMembers?: number;
}

export interface GraphStructure {
  statistics: {
    node_count: number;
    edge_count: number;
    average_degree: number;
    isolated_nodes: number;
    num_communities: number;
    average_clustering: number;
  };
  /** Largest first; `members` are node ids, the first `sampleMembers` of the community by PageRank. */
  communities: { id: number; size: number; members: string[] }[];
  top_nodes: { id: string; pagerank: number }[];
  isolated_nodes: string[];
}

/**
 * Communities (Louvain, modularity), PageRank, isolated nodes and the clustering coefficient of the
 * graph, or of the part of it whose nodes have one of `templateIds`. Edges are read undirected and
 * parallel edges count once, as these measures define them.
 */
export async function graphStructure(db: Db, options: GraphStructureOptions = {}): Promise<GraphStructure> {
  const adjacency = await graphAdjacency(db);
  const mask = templateMask(adjacency, options.templateIds ?? []);
  const inScope = (v: number) => mask === null || mask[v] === 1;
  const neighbours = distinctNeighbours(adjacency, inScope);

  let nodeCount = 0;
  let degreeSum = 0;
  const isolated: number[] = [];
  for (let v = 0; v < adjacency.nodeCount; v++) {
    if (!inScope(v)) continue;
    nodeCount += 1;
    degreeSum += neighbours[v].length;
    if (neighbours[v].length === 0) isolated.push(v);
  }

  const { scores, active } = pageRank(adjacency, mask, { damping: 0.85 });
  const byRank = (a: number, b: number) => scores[b] - scores[a] || a - b;
  const communities = detectCommunities(adjacency, neighbours, inScope);
  const sample = options.sampleMembers ?? 5;
  const named = communities
    .sort((a, b) => b.length - a.length || a[0] - b[0])
    .slice(0, options.communities ?? 10)
    .map((members, id) => ({
      id,
      size: members.length,
      members: [...members]
        .sort(byRank)
        .slice(0, sample)
        .map((v) => adjacency.ids[v]),
    }));

  return {
    statistics: {
      node_count: nodeCount,
      edge_count: degreeSum / 2,
      average_degree: round(nodeCount === 0 ? 0 : degreeSum / nodeCount),
      isolated_nodes: isolated.length,
      num_communities: communities.length,
      average_clustering: round(averageClustering(neighbours, inScope, adjacency.nodeCount, nodeCount)),
    },
    communities: named,
    top_nodes: topNodes(scores, options.topNodes ?? 10, inScope, active).map((v) => ({
      id: adjacency.ids[v],
      pagerank: Math.round(scores[v] * 1e6) / 1e6,
    })),
    isolated_nodes: isolated.slice(0, options.isolatedNodes ?? 20).map((v) => adjacency.ids[v]),
  };
}

function templateMask(adjacency: GraphAdjacency, templateIds: string[]): Uint8Array | null {
  if (templateIds.length === 0) return null;
  const wanted = new Set(templateIds);
  const mask = new Uint8Array(adjacency.nodeCount);
  for (let v = 0; v < adjacency.nodeCount; v++)
    mask[v] = wanted.has(adjacency.templates[adjacency.nodeTemplates[v]]) ? 1 : 0;
  return mask;
}

/** Per node its other in-scope neighbours, ascending, each once (self-loops and parallel edges dropped). */
function distinctNeighbours(graph: AdjacencyGraph, inScope: (v: number) => boolean): Int32Array[] {
  const rows: Int32Array[] = new Array<Int32Array>(graph.nodeCount);
  const empty = new Int32Array(0);
  for (let v = 0; v < graph.nodeCount; v++) {
    if (!inScope(v)) {
      rows[v] = empty;
      continue;
    }
    const row: number[] = [];
    for (let j = graph.offsets[v], end = graph.offsets[v + 1]; j < end; j++) {
      const u = graph.neighbors[j];
      if (u !== v && inScope(u) && row[row.length - 1] !== u) row.push(u); // rows are sorted by neighbour
    }
    rows[v] = Int32Array.from(row);
  }
  return rows;
}

/** Communities by Louvain, visiting nodes in order so one graph always splits the same way; isolated nodes are their own. */
// A CommonJS module whose types declare an ES default export: Node hands over `module.exports` itself.
const louvain = louvainModule as unknown as (typeof louvainModule)['default'];

function detectCommunities(
  adjacency: GraphAdjacency,
  neighbours: Int32Array[],
  inScope: (v: number) => boolean,
): number[][] {
  const graph = new UndirectedGraph({ multi: false, allowSelfLoops: false });
  for (let v = 0; v < adjacency.nodeCount; v++) if (inScope(v)) graph.addNode(String(v));
  for (let v = 0; v < adjacency.nodeCount; v++)
    for (const u of neighbours[v]) if (u > v) graph.addEdge(String(v), String(u));
  const assignment = graph.size === 0 ? {} : louvain(graph, { randomWalk: false });
  const groups = new Map<string, number[]>();
  graph.forEachNode((key) => {
    const community = key in assignment ? `c${assignment[key]}` : `n${key}`;
    const members = groups.get(community) ?? [];
    members.push(Number(key));
    groups.set(community, members);
  });
  return [...groups.values()];
}

/** The mean local clustering coefficient over in-scope nodes (0 for a node with fewer than two neighbours). */
function averageClustering(
  neighbours: Int32Array[],
  inScope: (v: number) => boolean,
  total: number,
  nodeCount: number,
): number {
  if (nodeCount === 0) return 0;
  let sum = 0;
  for (let v = 0; v < total; v++) {
    const row = neighbours[v];
    if (!inScope(v) || row.length < 2) continue;
    let links = 0;
    for (let i = 0; i < row.length; i++) links += sortedOverlap(neighbours[row[i]], row, i + 1);
    sum += (2 * links) / (row.length * (row.length - 1));
  }
  return sum / nodeCount;
}

/** How many of `row[from…]` appear in `other`; both ascending. */
function sortedOverlap(other: Int32Array, row: Int32Array, from: number): number {
  let count = 0;
  let i = 0;
  let j = from;
  while (i < other.length && j < row.length) {
    if (other[i] === row[j]) {
      count += 1;
      i += 1;
      j += 1;
    } else if (other[i] < row[j]) i += 1;
    else j += 1;
  }
  return count;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
