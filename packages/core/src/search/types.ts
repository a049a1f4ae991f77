/**
 * The shapes search modes share. Every mode ranks items (nodes and chunks of enabled sources, within
 * the scope); `hydrate.ts` turns a ranking into the API's SearchResult objects.
 */
import type { Settings } from '@rhizome/contracts/settings';
import type { EmbeddingService } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';

/** What the caller may narrow a search to; disabled sources are always left out. */
export interface SearchScope {
  /** Only chunks of these sources, and nodes they cite (null: every enabled source). */
  sourceIds: string[] | null;
  /** Only nodes of this template. */
  templateId: string | null;
}

/** One ranked item: `score` is the mode's own (BM25-derived, cosine 0–1, RRF, PageRank), higher is better. */
export interface RankedItem {
  kind: 'node' | 'chunk';
  /** Node id or chunk id. */
  id: string;
  score: number;
}

/** A node–edge–node step the graph mode traversed, for the caller to show or feed to a model. */
export interface Triple {
  source: { id: string; label: string; template_id: string };
  relationship: string;
  target: { id: string; label: string; template_id: string };
}

/** A mode's answer: its ranking, and why it fell back (e.g. the vector index needs a rebuild) when it did. */
export interface ModeResult {
  items: RankedItem[];
  fallback: string | null;
  triples?: Triple[];
}

/** What a mode may use: the active database, the embedding port, the vector indexes of this process, the settings. */
export interface SearchContext {
  db: Db;
  database: string;
  settings: Settings;
  embeddings: EmbeddingService;
}
