import type { Knex } from 'knex';

/**
 * Change counters for the graph-search adjacency cache (`search/graph/adjacency.ts`): one row, two
 * counters bumped by triggers, so a query checks freshness with a single-row read instead of scanning.
 *
 * - `structure`: nodes inserted or deleted (or re-typed), edges inserted, deleted or re-pointed or
 *   re-labelled: the cached adjacency is rebuilt.
 * - `scope`: what decides which nodes a search may reach (node_sources, a node's `source_id`, a
 *   source enabled or disabled, a source deleted): only the cached scope masks are recomputed.
 *
 * Property, position, degree and label edits of nodes bump neither: the cache holds none of them.
 * Triggers fire on every write path (API, batch, commit, foreign-key cascades), so no caller has to
 * remember to invalidate.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    'CREATE TABLE graph_version (id INTEGER PRIMARY KEY CHECK (id = 1), structure INTEGER NOT NULL DEFAULT 0, scope INTEGER NOT NULL DEFAULT 0)',
  );
  await db.raw('INSERT INTO graph_version (id, structure, scope) VALUES (1, 0, 0)');
  const bump = (counter: 'structure' | 'scope') => `UPDATE graph_version SET ${counter} = ${counter} + 1 WHERE id = 1;`;
  const triggers: [name: string, event: string, counter: 'structure' | 'scope'][] = [
    ['graph_nodes_version_insert', 'AFTER INSERT ON graph_nodes', 'structure'],
    ['graph_nodes_version_delete', 'AFTER DELETE ON graph_nodes', 'structure'],
    ['graph_nodes_version_retype', 'AFTER UPDATE OF id, template_id ON graph_nodes', 'structure'],
    ['graph_nodes_version_source', 'AFTER UPDATE OF source_id ON graph_nodes', 'scope'],
    ['graph_edges_version_insert', 'AFTER INSERT ON graph_edges', 'structure'],
    ['graph_edges_version_delete', 'AFTER DELETE ON graph_edges', 'structure'],
    ['graph_edges_version_update', 'AFTER UPDATE OF source_node_id, target_node_id, label ON graph_edges', 'structure'],
    ['node_sources_version_insert', 'AFTER INSERT ON node_sources', 'scope'],
    ['node_sources_version_delete', 'AFTER DELETE ON node_sources', 'scope'],
    ['node_sources_version_update', 'AFTER UPDATE ON node_sources', 'scope'],
    ['sources_version_enabled', 'AFTER UPDATE OF enabled ON sources', 'scope'],
    ['sources_version_delete', 'AFTER DELETE ON sources', 'scope'],
  ];
  for (const [name, event, counter] of triggers)
    await db.raw(`CREATE TRIGGER ${name} ${event} BEGIN ${bump(counter)} END`);
}

export async function down(): Promise<void> {}
