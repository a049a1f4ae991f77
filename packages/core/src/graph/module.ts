import type { DatabaseHandle, FeatureModule, Platform } from '../platform/index.ts';
import { graphCounts } from './counts.ts';
import { GraphService } from './service.ts';
import { seedSystemTemplates } from './system-templates.ts';
import { defineGraphOperations } from './tasks.ts';

function graphService(platform: Platform, { name, db }: DatabaseHandle): GraphService {
  return new GraphService({
    db,
    database: name,
    events: platform.graphEvents,
    queue: platform.queue,
    tasks: platform.tasks,
    logger: platform.logger,
  });
}

/**
 * The knowledge graph: nodes, edges and the templates typing them, the vectors clients give nodes, the
 * full-text entries of nodes, snapshots; batch, template and maintenance tasks; the system templates every
 * database starts with.
 */
export const graphModule: FeatureModule<GraphService> = {
  name: 'graph',
  tables: [
    'graph_templates',
    'graph_nodes',
    'graph_edges',
    'graph_snapshots',
    'graph_version',
    'node_sources',
    'edge_sources',
    'template_sources',
    'node_embeddings',
    'fts_nodes',
  ],
  defineTasks(registry, platform) {
    defineGraphOperations(registry, {
      databases: platform.databases,
      events: platform.graphEvents,
      embeddings: platform.providers.embeddings,
    });
  },
  service: graphService,
  counts: graphCounts,
  seeds: [seedSystemTemplates],
};
