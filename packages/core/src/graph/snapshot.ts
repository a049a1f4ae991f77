import { selectRows, type Db } from '../storage/index.ts';
import { sourceContributions, sourceCount } from './read-model.ts';

/** Per-template count in a breakdown. */
export interface TemplateCount {
  template_id: string;
  name: string | null;
  color: string | null;
  icon: string | null;
  count: number;
}

/**
 * The snapshot body (the API leaves GraphBreakdown's shape open): what the graph consists of, pre-computed in
 * the background so a dashboard can show it without scanning the graph on every request.
 */
export interface GraphBreakdown {
  generated_at: string;
  totals: { nodes: number; edges: number; templates: number; sources: number };
  /** Node counts per template, largest first (only templates in use). */
  node_templates: TemplateCount[];
  /** Edge counts per template, largest first (only templates in use). */
  edge_templates: TemplateCount[];
  /** Every source with the nodes and edges it contributed, largest first. */
  sources: { source_id: string; title: string | null; node_count: number; edge_count: number }[];
  /** Degree (incoming + outgoing edges) over all nodes; all 0 for an empty graph. */
  degree: { min: number; max: number; mean: number; median: number; p90: number; isolated_nodes: number };
  /** The ten nodes with the most edges. */
  top_hubs: { id: string; label: string; template_id: string; degree: number }[];
}

export interface StoredSnapshot {
  breakdown: GraphBreakdown;
  node_count: number;
  edge_count: number;
  generated_at: string;
}

/** A snapshot is stale after an hour, or once the node count drifted more than 10 % (the API's documented limits). */
export const snapshotMaxAgeMs = 3_600_000;
export const snapshotMaxDrift = 0.1;

const snapshotRowId = 1;
const hubCount = 10;

const degreeSql = `(SELECT COUNT(*) FROM graph_edges WHERE source_node_id = n.id) + (SELECT COUNT(*) FROM graph_edges WHERE target_node_id = n.id)`;

/** Computes the breakdown of the graph as it is now. */
export async function computeBreakdown(db: Db, now: Date = new Date()): Promise<GraphBreakdown> {
  const count = async (sql: string) => Number((await selectRows<{ n: number }>(db, sql))[0].n);
  const [nodes, edges, templates, sources] = [
    await count('SELECT COUNT(*) AS n FROM graph_nodes'),
    await count('SELECT COUNT(*) AS n FROM graph_edges'),
    await count('SELECT COUNT(*) AS n FROM graph_templates'),
    await sourceCount(db),
  ];
  const perTemplate = (table: 'graph_nodes' | 'graph_edges') =>
    selectRows<TemplateCount>(
      db,
      `SELECT c.template_id, t.name, t.color, t.icon, c.count FROM (SELECT template_id, COUNT(*) AS count FROM ${table} GROUP BY template_id) c
       LEFT JOIN graph_templates t ON t.id = c.template_id ORDER BY c.count DESC, c.template_id`,
    );
  const perSource = await sourceContributions(db);
  // The distribution as a histogram (degree → nodes): a few rows, whatever the size of the graph.
  const histogram = await selectRows<{ degree: number; nodes: number }>(
    db,
    `SELECT d AS degree, COUNT(*) AS nodes FROM (SELECT ${degreeSql} AS d FROM graph_nodes n) AS degrees GROUP BY d ORDER BY d`,
  );
  const hubs = await selectRows<GraphBreakdown['top_hubs'][number]>(
    db,
    `SELECT n.id, n.label, n.template_id, r.degree FROM (SELECT n.id AS id, ${degreeSql} AS degree FROM graph_nodes n ORDER BY degree DESC, n.id LIMIT ?) r
     JOIN graph_nodes n ON n.id = r.id WHERE r.degree > 0 ORDER BY r.degree DESC, r.id`,
    [hubCount],
  );
  return {
    generated_at: now.toISOString(),
    totals: { nodes, edges, templates, sources },
    node_templates: await perTemplate('graph_nodes'),
    edge_templates: await perTemplate('graph_edges'),
    sources: perSource,
    degree: degreeSummary(histogram),
    top_hubs: hubs,
  };
}

/** min, max, mean, median (mean of the middle two for an even count) and p90 (nearest rank) of a histogram. */
export function degreeSummary(histogram: { degree: number; nodes: number }[]): GraphBreakdown['degree'] {
  const total = histogram.reduce((sum, bucket) => sum + bucket.nodes, 0);
  if (total === 0) return { min: 0, max: 0, mean: 0, median: 0, p90: 0, isolated_nodes: 0 };
  const sorted = [...histogram].sort((a, b) => a.degree - b.degree);
  /** The degree of the k-th node (1-based) in ascending order. */
  const nth = (k: number) => {
    let seen = 0;
    for (const bucket of sorted) {
      seen += bucket.nodes;
      if (seen >= k) return bucket.degree;
    }
    return sorted[sorted.length - 1].degree;
  };
  const sum = sorted.reduce((acc, bucket) => acc + bucket.degree * bucket.nodes, 0);
  const median = total % 2 === 1 ? nth((total + 1) / 2) : (nth(total / 2) + nth(total / 2 + 1)) / 2;
  return {
    min: sorted[0].degree,
    max: sorted[sorted.length - 1].degree,
    mean: Math.round((sum / total) * 1000) / 1000,
    median,
    p90: nth(Math.ceil(total * 0.9)),
    isolated_nodes: sorted.find((bucket) => bucket.degree === 0)?.nodes ?? 0,
  };
}

/** Computes the breakdown and stores it as the database's snapshot (one row, replaced each time). */
export async function buildSnapshot(db: Db, now: Date = new Date()): Promise<GraphBreakdown> {
  const breakdown = await computeBreakdown(db, now);
  await db('graph_snapshots')
    .insert({
      id: snapshotRowId,
      payload_json: JSON.stringify(breakdown),
      node_count: breakdown.totals.nodes,
      edge_count: breakdown.totals.edges,
      generated_at: breakdown.generated_at,
    })
    .onConflict('id')
    .merge();
  return breakdown;
}

/** The stored snapshot, or null when none was built yet (or the stored one is unreadable). */
export async function readSnapshot(db: Db): Promise<StoredSnapshot | null> {
  const row = await db('graph_snapshots').where({ id: snapshotRowId }).first();
  if (!row) return null;
  try {
    const breakdown = JSON.parse(row.payload_json) as GraphBreakdown;
    return { breakdown, node_count: row.node_count, edge_count: row.edge_count, generated_at: row.generated_at };
  } catch {
    return null;
  }
}

/** Older than an hour, or the node count moved more than 10 % away from the snapshot's. */
export async function isSnapshotStale(db: Db, snapshot: StoredSnapshot, now: number = Date.now()): Promise<boolean> {
  const generated = Date.parse(snapshot.generated_at);
  if (!Number.isFinite(generated) || now - generated > snapshotMaxAgeMs) return true;
  const current = Number((await selectRows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM graph_nodes'))[0].n);
  if (snapshot.node_count === 0) return current > 0;
  return Math.abs(current - snapshot.node_count) / snapshot.node_count > snapshotMaxDrift;
}
