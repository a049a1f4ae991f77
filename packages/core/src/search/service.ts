import type { SearchResultBody } from '@rhizome/contracts/api/search';
import type { Settings } from '@rhizome/contracts/settings';
import type { QueueService } from '@rhizome/queue';
import type { EmbeddingService } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { hydrate } from './read-model/results.ts';
import { runSearch, type SearchType } from './modes.ts';
import { SearchMaintenance } from './tasks.ts';
import type { SearchScope, Triple } from './types.ts';
import type { VectorWriterSet } from './vectors/writers.ts';

export interface SearchServiceDeps {
  db: Db;
  database: string;
  settings(): Settings;
  embeddings: EmbeddingService;
  queue: QueueService;
  writers: VectorWriterSet;
}

export interface SearchAnswer {
  data: SearchResultBody[];
  type: SearchType;
  fallback: string | null;
  triples?: Triple[];
}

/** Search of one database: one mode's ranking hydrated into results, and the maintenance of its indexes. */
export class SearchService {
  private readonly maintenance: SearchMaintenance;

  constructor(private readonly deps: SearchServiceDeps) {
    this.maintenance = new SearchMaintenance({
      settings: deps.settings,
      embeddings: deps.embeddings,
      queue: deps.queue,
      writers: deps.writers,
    });
  }

  async search(type: SearchType, query: string, scope: SearchScope, limit: number): Promise<SearchAnswer> {
    const { db, database, settings, embeddings } = this.deps;
    const result = await runSearch({ db, database, settings: settings(), embeddings }, type, query, scope, limit);
    return {
      data: await hydrate(db, result.items.slice(0, limit)),
      type,
      fallback: result.fallback,
      ...(result.triples ? { triples: result.triples } : {}),
    };
  }

  stats() {
    return this.maintenance.stats(this.deps.db);
  }

  status() {
    return this.maintenance.status(this.deps.db);
  }

  rebuild() {
    return this.maintenance.rebuild(this.deps.database, this.deps.db);
  }

  embedNodes() {
    return this.maintenance.embedNodes(this.deps.database, this.deps.db);
  }
}
