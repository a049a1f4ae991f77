import type { SearchResultBody } from '@rhizome/contracts/api/search';
import type { Settings } from '@rhizome/contracts/settings';
import type { QueueService } from '@rhizome/queue';
import type { EmbeddingService } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { centralNodes } from './graph/centrality.ts';
import { graphStructure, type GraphStructureOptions } from './graph/structure.ts';
import { hydrate } from './read-model/results.ts';
import { runSearch, type SearchType } from './modes.ts';
import { semanticNodes } from './semantic.ts';
import { SearchMaintenance } from './maintenance.ts';
import { searchTemplates } from './template-search.ts';
import type { SearchContext, SearchScope, Triple } from './types.ts';
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
    const result = await runSearch(this.context(), type, query, scope, limit);
    return {
      data: await hydrate(this.deps.db, result.items.slice(0, limit)),
      type,
      fallback: result.fallback,
      ...(result.triples ? { triples: result.triples } : {}),
    };
  }

  /** The nodes whose vectors are nearest the text's, best first (with the fallback when vector search cannot run). */
  similarNodes(text: string, limit: number) {
    return semanticNodes(this.context(), text, { sourceIds: null, templateId: null }, limit);
  }

  /** Node and edge templates by the words of their name and description, then by meaning. */
  templates(query: string, limit: number) {
    return searchTemplates(this.context(), query, limit);
  }

  /** The `top` most central nodes of the graph by PageRank, best first. */
  centralNodes(top: number) {
    return centralNodes(this.deps.db, top);
  }

  graphStructure(options: GraphStructureOptions) {
    return graphStructure(this.deps.db, options);
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

  private context(): SearchContext {
    const { db, database, settings, embeddings } = this.deps;
    return { db, database, settings: settings(), embeddings };
  }
}
