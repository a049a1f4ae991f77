import type { QueueService, TaskStore } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { Logger } from '../logging.ts';
import type { DatabaseHandle, FeatureModule } from '../module/index.ts';
import type { Providers } from '../providers/index.ts';
import { graphCounts } from './counts.ts';
import type { GraphEventBus } from './events.ts';
import type { MergedCitations } from './nodes/merge.ts';
import { GraphService } from './service.ts';
import { seedSystemTemplates } from './system-templates.ts';
import { defineGraphOperations } from './tasks.ts';

/** What the graph module needs of the process it runs in. */
export interface GraphHost {
  databases: DatabaseManager;
  graphEvents: GraphEventBus;
  providers: Pick<Providers, 'embeddings'>;
  queue: QueueService;
  tasks: TaskStore;
  logger: Logger;
  /** The citations' owner (extraction), which a node merge carries the merged nodes' citations along through. */
  mergedCitations: MergedCitations;
}

function graphService(host: GraphHost, { name, db }: DatabaseHandle): GraphService {
  return new GraphService({
    db,
    database: name,
    events: host.graphEvents,
    queue: host.queue,
    tasks: host.tasks,
    logger: host.logger,
    citations: host.mergedCitations,
  });
}

/**
 * The knowledge graph: nodes, edges and the templates typing them, the vectors clients give nodes, the
 * full-text entries of nodes, entity tags, snapshots; batch, template and maintenance tasks; the system templates every
 * database starts with.
 */
export const graphModule: FeatureModule<GraphService, GraphHost> = {
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
    'duplicate_rejections',
    'node_merges',
    'node_tags',
    'node_tag_links',
  ],
  defineTasks(registry, host) {
    defineGraphOperations(registry, {
      databases: host.databases,
      events: host.graphEvents,
      embeddings: host.providers.embeddings,
    });
  },
  service: graphService,
  counts: graphCounts,
  seeds: [seedSystemTemplates],
};
