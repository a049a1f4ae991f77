import type { DatabaseHandle, FeatureModule } from '../module/index.ts';
import type { SearchHost } from './host.ts';
import { nodeVectorSweep } from './node-vector-sweep.ts';
import { SearchService } from './service.ts';
import { defineSearchOperations } from './tasks.ts';
import { vectorIndexHealth } from './vector-index-health.ts';
import { graphSearchWarmUp } from './warm-up.ts';

function searchService(host: SearchHost, { name, db }: DatabaseHandle): SearchService {
  return new SearchService({
    db,
    database: name,
    settings: () => host.settings.get(),
    embeddings: host.providers.embeddings,
    queue: host.queue,
    writers: host.vectorWriters,
  });
}

/**
 * Search: keyword, semantic, graph and hybrid rankings over the graph's and the sources' rows (through its
 * read model), the chunk full-text index, the vector index files, node embedding, the re-embedding task and
 * the `vector_index` subsystem of GET /health.
 */
export const searchModule: FeatureModule<SearchService, SearchHost> = {
  name: 'search',
  tables: ['fts_chunks', 'corpus_terms', 'corpus_state'],
  defineTasks(registry, host) {
    defineSearchOperations(registry, {
      databases: host.databases,
      settings: () => host.settings.get(),
      embeddings: host.providers.embeddings,
      writers: host.vectorWriters,
    });
  },
  service: searchService,
  health: (host) => ({
    vector_index: () =>
      vectorIndexHealth({
        databases: host.databases,
        embeddings: host.providers.embeddings,
        settings: () => host.settings.get(),
      }),
  }),
  background: [graphSearchWarmUp, nodeVectorSweep],
};
