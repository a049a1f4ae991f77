import type { Knex } from 'knex';
import * as baseline from './0001_baseline.ts';
import * as graph from './0002_graph.ts';
import * as sources from './0003_sources.ts';
import * as extraction from './0004_extraction.ts';
import * as nodeVectors from './0005_node_vectors.ts';
import * as graphVersion from './0006_graph_version.ts';
import * as quality from './0007_quality.ts';
import * as chats from './0008_chats.ts';
import * as automation from './0009_automation.ts';
import * as portability from './0010_portability.ts';
import * as sharedTemplates from './0011_shared_templates.ts';
import * as chunkVectors from './0012_chunk_vectors.ts';
import * as duplicates from './0013_duplicates.ts';
import * as documentLinks from './0014_document_links.ts';
import * as corpusModel from './0015_corpus_model.ts';
import * as chunkTitles from './0016_chunk_titles.ts';
import * as mergeCitations from './0017_merge_citations.ts';
import * as tagDescriptions from './0018_tag_descriptions.ts';
import * as executionOrigin from './0019_execution_origin.ts';
import * as extractionAttempts from './0020_extraction_attempts.ts';
import * as listOrders from './0021_list_orders.ts';
import * as nodeTagsAndBulkJobs from './0022_node_tags_and_bulk_jobs.ts';
import * as extractionPrompts from './0023_extraction_prompts.ts';

export interface MigrationBody {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export interface Migration extends MigrationBody {
  /** `<revision>_<slug>`: the revision is the four-digit prefix. */
  name: string;
  /** What PostgreSQL runs instead, where the dialects need different statements (`dialect-bodies.ts`). */
  postgres?: MigrationBody;
}

/** Every shipped migration, oldest first. Features append theirs here. */
export const shippedMigrations: Migration[] = [
  { name: '0001_baseline', ...baseline },
  { name: '0002_graph', ...graph },
  { name: '0003_sources', ...sources },
  { name: '0004_extraction', ...extraction },
  { name: '0005_node_vectors', ...nodeVectors },
  { name: '0006_graph_version', ...graphVersion },
  { name: '0007_quality', ...quality },
  { name: '0008_chats', ...chats },
  { name: '0009_automation', ...automation },
  { name: '0010_portability', ...portability },
  { name: '0011_shared_templates', ...sharedTemplates },
  { name: '0012_chunk_vectors', ...chunkVectors },
  { name: '0013_duplicates', ...duplicates },
  { name: '0014_document_links', ...documentLinks },
  { name: '0015_corpus_model', ...corpusModel },
  { name: '0016_chunk_titles', ...chunkTitles },
  { name: '0017_merge_citations', ...mergeCitations },
  { name: '0018_tag_descriptions', ...tagDescriptions },
  { name: '0019_execution_origin', ...executionOrigin },
  { name: '0020_extraction_attempts', ...extractionAttempts },
  { name: '0021_list_orders', ...listOrders },
  { name: '0022_node_tags_and_bulk_jobs', ...nodeTagsAndBulkJobs },
  { name: '0023_extraction_prompts', ...extractionPrompts },
];

export function revisionOf(migrationName: string): string {
  return migrationName.slice(0, 4);
}
