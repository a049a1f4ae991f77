import { jsonArrayValues, perDialect, selectRows, type Db } from '../storage/index.ts';
import { disabledSourceIds, nodesOfDisabledSourcesOnly, nodesOfSources } from './read-model.ts';

/**
 * A node's source for the canvas (its clusters by source): the one it was made in, else the first of the
 * sources extraction found it in, since extraction records those in node_sources only.
 */
const nodeColumns = `n.id, n.template_id, n.label, n.position_x, n.position_y,
  COALESCE(n.source_id, (SELECT ns.source_id FROM node_sources ns WHERE ns.node_id = n.id ORDER BY ns.source_id LIMIT 1)) AS source_id`;

export interface CanvasNode {
  id: string;
  template_id: string;
  label: string;
  position: { x: number; y: number } | null;
  source_id: string | null;
}

export interface CanvasEdge {
  id: string;
  source_node_id: string;
  target_node_id: string;
  template_id: string;
  label: string;
}

export interface CanvasTemplate {
  id: string;
  name: string;
  template_type: string;
  icon: string | null;
  color: string | null;
  description: string | null;
}

export interface CanvasPayload {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  templates: CanvasTemplate[];
  total_nodes: number;
  total_edges: number;
  truncated: boolean;
}

export interface CanvasOptions {
  maxNodes: number;
  maxEdges: number;
  /** Only nodes of these sources (and edges whose both ends are returned). */
  sourceIds?: string[];
}

/**
 * Edges leaving the nodes of one bound JSON id list whose target is in a second one (bound after it):
 * driven from the listed nodes in order through the source_node_id index. On SQLite the unary + keeps the
 * planner from probing an index once per (kept source, kept target) pair, and CROSS JOIN fixes the order;
 * PostgreSQL plans the join itself.
 */
const edgesAmong = perDialect<[], string>({
  sqlite: () =>
    'FROM json_each(?) kept CROSS JOIN graph_edges e ON e.source_node_id = kept.value WHERE +e.target_node_id IN (SELECT value FROM json_each(?))',
  postgres: (db) =>
    `FROM json_array_elements_text(?::json) AS kept (value) JOIN graph_edges e ON e.source_node_id = kept.value WHERE e.target_node_id IN (${jsonArrayValues(db)})`,
});

interface NodeRow {
  id: string;
  template_id: string;
  label: string;
  position_x: number | null;
  position_y: number | null;
  source_id: string | null;
}

/**
 * The canvas: every visible node and edge (nodes of disabled sources excluded) up to the caps. When
 * there are more nodes than `maxNodes`, the highest-degree ones are kept so the canvas shows the
 * backbone; edges are only those between returned nodes, the ones of the highest-degree nodes first.
 * `total_*` are the uncapped counts; `truncated` tells that a cap was exceeded.
 *
 * Lean SQL throughout (no properties, embeddings or timestamps read; index-driven counts and joins),
 * and the payload is cached per connection until anything in the database changes (see canvasCache).
 */
export async function canvasData(db: Db, options: CanvasOptions): Promise<CanvasPayload> {
  const key = JSON.stringify([
    options.maxNodes,
    options.maxEdges,
    options.sourceIds ? [...new Set(options.sourceIds)].sort() : null,
  ]);
  const marker = await changeMarker(db);
  const cached = canvasCache(db).get(key);
  if (cached && cached.marker === marker) return cached.payload;
  const payload = await buildCanvas(db, options);
  remember(db, key, marker, payload);
  return payload;
}

/** Builds the payload without the cache (exported for measuring the cold path). */
export async function buildCanvas(db: Db, options: CanvasOptions): Promise<CanvasPayload> {
  const disabled = await disabledSourceIds(db);
  const disabledJson = JSON.stringify(disabled);
  const edgeOfEnabled = disabled.length
    ? `AND (e.source_id IS NULL OR e.source_id NOT IN (${jsonArrayValues(db)}))`
    : '';
  const edgeBindings = disabled.length ? [disabledJson] : [];

  // Which nodes are visible, as a predicate on alias n, by the rule graph search scopes by: a node belongs
  // to the sources it is linked to (node_sources, what extraction writes) and to its own source_id.
  let nodeFilter: { sql: string; bindings: string[] };
  let totalNodes: number;
  let totalEdges: number;
  if (options.sourceIds) {
    const wanted = await nodesOfSources(db, [...new Set(options.sourceIds)]);
    if (!wanted.length)
      return { nodes: [], edges: [], templates: [], total_nodes: 0, total_edges: 0, truncated: false };
    const wantedJson = JSON.stringify(wanted);
    nodeFilter = { sql: `n.id IN (${jsonArrayValues(db)})`, bindings: [wantedJson] };
    totalNodes = wanted.length;
    // Edges leaving the selected sources' nodes whose target is one of them too.
    totalEdges = await scalar(db, `SELECT COUNT(*) AS n ${edgesAmong(db)} ${edgeOfEnabled}`, [
      wantedJson,
      wantedJson,
      ...edgeBindings,
    ]);
  } else {
    // Everything minus what touches a node only disabled sources gave (cost proportional to that, not to the graph).
    const hidden = disabled.length ? await nodesOfDisabledSourcesOnly(db) : [];
    const hiddenJson = JSON.stringify(hidden);
    nodeFilter = hidden.length
      ? { sql: `n.id NOT IN (${jsonArrayValues(db)})`, bindings: [hiddenJson] }
      : { sql: 'TRUE', bindings: [] };
    totalNodes = (await scalar(db, 'SELECT COUNT(*) AS n FROM graph_nodes', [])) - hidden.length;
    totalEdges = await scalar(db, 'SELECT COUNT(*) AS n FROM graph_edges', []);
    if (disabled.length) {
      const listed = jsonArrayValues(db);
      totalEdges -= await scalar(
        db,
        `SELECT COUNT(*) AS n FROM graph_edges e
         WHERE e.source_id IN (${listed}) OR e.source_node_id IN (${listed}) OR e.target_node_id IN (${listed})`,
        [disabledJson, hiddenJson, hiddenJson],
      );
    }
  }

  let nodeRows: NodeRow[];
  if (totalNodes <= options.maxNodes) {
    nodeRows = await selectRows<NodeRow>(
      db,
      `SELECT ${nodeColumns} FROM graph_nodes n WHERE ${nodeFilter.sql}`,
      nodeFilter.bindings,
    );
  } else {
    // Rank ids only (a narrow sort), then read the columns of the kept ones, highest degree first.
    nodeRows = await selectRows<NodeRow>(
      db,
      `SELECT ${nodeColumns} FROM graph_nodes n
       WHERE ${nodeFilter.sql} ORDER BY n.degree DESC, n.id LIMIT ?`,
      [...nodeFilter.bindings, options.maxNodes],
    );
  }

  const idsJson = JSON.stringify(nodeRows.map((row) => row.id));
  // From the kept nodes in rank order; the target must be kept too.
  const edgeRows = await selectRows<CanvasEdge>(
    db,
    `SELECT e.id, e.source_node_id, e.target_node_id, e.template_id, e.label
     ${edgesAmong(db)} ${edgeOfEnabled}
     LIMIT ?`,
    [idsJson, idsJson, ...edgeBindings, options.maxEdges],
  );

  const nodes = nodeRows.map((row) => ({
    id: row.id,
    template_id: row.template_id,
    label: row.label,
    position: row.position_x !== null && row.position_y !== null ? { x: row.position_x, y: row.position_y } : null,
    source_id: row.source_id,
  }));
  const templateIds = new Set<string>();
  for (const node of nodeRows) templateIds.add(node.template_id);
  for (const edge of edgeRows) templateIds.add(edge.template_id);
  const templates: CanvasTemplate[] = templateIds.size
    ? await selectRows<CanvasTemplate>(
        db,
        `SELECT id, name, template_type, icon, color, description FROM graph_templates WHERE id IN (${jsonArrayValues(db)}) ORDER BY template_type DESC, name`,
        [JSON.stringify([...templateIds])],
      )
    : [];
  return {
    nodes,
    edges: edgeRows,
    templates,
    total_nodes: totalNodes,
    total_edges: totalEdges,
    truncated: totalNodes > options.maxNodes || totalEdges > options.maxEdges,
  };
}

async function scalar(db: Db, sql: string, bindings: string[]): Promise<number> {
  const rows = await selectRows<{ n: number }>(db, sql, bindings);
  return Number(rows[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Cache: the canvas is read far more often than the graph changes. On SQLite `PRAGMA data_version`
// changes when another connection (the worker process) commits and `total_changes()` counts this
// connection's own writes (the embedded worker shares it). On PostgreSQL the current snapshot changes
// whenever a writing transaction of the server begins or ends (of any schema: a few needless rebuilds).
// Either changes whenever the database does, so a hit is exactly what a rebuild would return. Kept per
// knex instance, so a reopened database starts empty.
// ---------------------------------------------------------------------------------------------------

interface CacheEntry {
  marker: string;
  payload: CanvasPayload;
}

const caches = new WeakMap<Db, Map<string, CacheEntry>>();
const maxEntries = 4;

function canvasCache(db: Db): Map<string, CacheEntry> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

function remember(db: Db, key: string, marker: string, payload: CanvasPayload): void {
  const cache = canvasCache(db);
  cache.delete(key);
  cache.set(key, { marker, payload });
  while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
}

const changeMarker = perDialect<[], Promise<string>>({
  sqlite: async (db) => {
    const rows = (await db.raw('SELECT total_changes() AS changes')) as { changes: number }[];
    const version = (await db.raw('PRAGMA data_version')) as { data_version: number }[];
    return `${version[0].data_version}:${rows[0].changes}`;
  },
  postgres: async (db) =>
    (await selectRows<{ snapshot: string }>(db, 'SELECT pg_current_snapshot()::text AS snapshot'))[0].snapshot,
});
