import { clearCitations, clearProcessingState, type ClearedProcessingState } from '../extraction/index.ts';
import { clearGraphContents, clearUserTemplates, type ClearedGraph } from '../graph/index.ts';
import { clearCustomDomains, clearSources, removeSourceFiles } from '../sources/index.ts';
import type { DataPaths } from '../paths.ts';
import type { Db } from '../storage/index.ts';
import { refuseFullReset, refuseWhileProcessing } from './refusal.ts';

export interface KnowledgeWipe extends ClearedGraph, ClearedProcessingState {
  sources_deleted: number;
  chunks_deleted: number;
  citations_deleted: number;
}

export interface DefinitionsWipe {
  templates_deleted: number;
  custom_domains_deleted: number;
}

/**
 * The knowledge of a database: its sources with their files, chunks and chunk vectors, tags and links;
 * the graph (nodes, edges, node vectors, merges, duplicate rejections, snapshots); the citations; the
 * processing state. The search indexes follow (the caller rebuilds them). Templates, custom domains,
 * chats, workflows and settings stay; so does the builtin embedder's learned word statistics, which the
 * kept templates' vectors were made with. With `everything`, templates but the system ones and custom
 * domains go too, as for a new database, and the wipe is refused while a chat is answered or a workflow
 * runs (the caller deletes chats and workflows after it): checked again here, under the write lock, since
 * one may have started after the request was accepted.
 */
export async function wipeKnowledge(
  db: Db,
  database: string,
  paths: DataPaths,
  options: { everything: boolean },
): Promise<KnowledgeWipe & Partial<DefinitionsWipe>> {
  const { ids, ...wiped } = await db.transaction(async (trx) => {
    if (options.everything) await refuseFullReset(trx);
    else await refuseWhileProcessing(trx, 'the knowledge');
    // Citations before the graph and the sources, whose cascades would delete them one by one.
    const citations = await clearCitations(trx);
    const processing = await clearProcessingState(trx);
    const graph = await clearGraphContents(trx);
    const sources = await clearSources(trx);
    const definitions = options.everything
      ? { templates_deleted: await clearUserTemplates(trx), custom_domains_deleted: await clearCustomDomains(trx) }
      : {};
    return { ...sources, ...graph, citations_deleted: citations, ...processing, ...definitions };
  });
  for (const sourceId of ids) await removeSourceFiles(paths, database, sourceId);
  return wiped;
}
