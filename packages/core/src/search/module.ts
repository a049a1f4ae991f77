import type { DatabaseHandle, FeatureModule, Platform } from '../platform/index.ts';
import { SearchService } from './service.ts';
import { defineSearchOperations } from './tasks.ts';
import { graphSearchWarmUp } from './warm-up.ts';

function searchService(platform: Platform, { name, db }: DatabaseHandle): SearchService {
  return new SearchService({
    db,
    database: name,
    settings: () => platform.settings.get(),
    embeddings: platform.providers.embeddings,
    queue: platform.queue,
    writers: platform.vectorWriters,
  });
}

/**
 * Search: keyword, semantic, graph and hybrid rankings over the graph's and the sources' rows (through its
 * read model), the chunk full-text index, the vector index files and the re-embedding task.
 */
export const searchModule: FeatureModule<SearchService> = {
  name: 'search',
  tables: ['fts_chunks'],
  defineTasks(registry, platform) {
    defineSearchOperations(registry, {
      databases: platform.databases,
      settings: () => platform.settings.get(),
      embeddings: platform.providers.embeddings,
      writers: platform.vectorWriters,
    });
  },
  service: searchService,
  background: [graphSearchWarmUp],
};
