import type { Settings } from '@rhizome/contracts/settings';
import { cloudModelsOf } from '../providers/index.ts';
import { modelFor } from '../providers/index.ts';
import type { DomainDefinition } from '../sources/index.ts';
import { promptTokens } from '../sources/index.ts';
import { chunkRange, sourceChunks, type ChunkRow } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { filterForExtraction } from './content-filter.ts';
import { extractionGroups, sampleGroups, type ExtractionGroup } from './groups.ts';
import type { ExtractionOptions } from './options.ts';
import type { GroupChunk } from './types.ts';
import type { AttemptRecorder } from './attempts/recorder.ts';

/** The chunks of a source between two indices, as the LLM sees them: content-filtered copies (stored chunks stay intact). */
export async function groupChunks(
  db: Db,
  sourceId: string,
  first: number,
  last: number,
  options: ExtractionOptions,
  domain: DomainDefinition,
  recorder?: AttemptRecorder,
): Promise<GroupChunk[]> {
  const rows = await chunkRange(db, sourceId, first, last);
  const { kept, dropped } = filterForExtraction(rows, filterOptions(options, domain));
  if (recorder) {
    recorder.inputTextLength = kept.reduce((sum, row) => sum + row.content.length, 0);
    const indexOf = new Map(rows.map((row) => [row.id, row.chunk_index]));
    for (const chunk of dropped)
      recorder.drop(
        'content_filter',
        'chunk',
        `chunk ${indexOf.get(chunk.id)}`,
        chunk.reason === 'too_short' ? 'too short once filtered' : `content filter: ${chunk.categories.join(', ')}`,
      );
  }
  return kept.map(toGroupChunk);
}

const toGroupChunk = (row: ChunkRow): GroupChunk => ({
  id: row.id,
  index: row.chunk_index,
  content: row.content,
  pageNumber: row.page_number,
  section: row.section,
});

const filterOptions = (options: ExtractionOptions, domain: DomainDefinition) => ({
  enabled: options.contentFiltering,
  mode: options.filteringMode,
  categories: domain.content_exclusions.categories,
});

function filtered(rows: ChunkRow[], options: ExtractionOptions, domain: DomainDefinition): ChunkRow[] {
  return filterForExtraction(rows, filterOptions(options, domain)).kept;
}

export interface ExtractionPlan {
  groups: ExtractionGroup[];
  /** Chunks the content filter kept for extraction, of all the source's chunks. */
  chunksKept: number;
  chunksTotal: number;
  estimate: { inputTokens: number; outputTokens: number; costUsd: number | null };
}

/** Prompt text around the domain material and the sentences: instructions, grammar, worked example (tokens). */
const promptOverheadTokens = 700;

/**
 * The groups a run extracts (packed to `chunking.target_group_tokens` with one chunk of
 * overlap; `quick` takes an even sample of `chunking.quick_mode_max_groups`, `full` at most
 * `chunking.max_groups_per_source`) and what they should cost: two passes per group, each sending the
 * domain material and the group's text (the second also the entity list), answering about half as
 * many tokens as the group holds.
 */
export async function planExtraction(
  db: Db,
  sourceId: string,
  options: ExtractionOptions,
  domain: DomainDefinition,
  settings: Settings,
): Promise<ExtractionPlan> {
  const rows = await sourceChunks(db, sourceId);
  const kept = filtered(rows, options, domain);
  const packed = extractionGroups(
    kept.map((row) => ({ index: row.chunk_index, tokenEstimate: Math.ceil(row.content.length / 4) })),
    settings.chunking.target_group_tokens,
    1,
  );
  const chosen =
    options.depth === 'quick'
      ? sampleGroups(packed, settings.chunking.quick_mode_max_groups)
      : packed.slice(0, settings.chunking.max_groups_per_source);
  const groups = chosen.map((group, groupIndex) => ({ ...group, groupIndex }));
  const perCall = promptOverheadTokens + promptTokens(domain);
  const inputTokens = groups.reduce(
    (sum, group) => sum + 2 * (perCall + group.tokens) + Math.ceil(group.tokens / 4),
    0,
  );
  const outputTokens = groups.reduce((sum, group) => sum + Math.ceil(group.tokens / 2), 0);
  return {
    groups,
    chunksKept: kept.length,
    chunksTotal: rows.length,
    estimate: { inputTokens, outputTokens, costUsd: costOf(settings, inputTokens, outputTokens) },
  };
}

/** Cost in USD at the extraction model's price: the cloud catalogue's, nothing for local and builtin models, else the configured per-million rates. */
export function costOf(settings: Settings, inputTokens: number, outputTokens: number): number | null {
  const llm = settings.llm;
  if (llm.chat_provider === 'builtin' || llm.chat_provider === 'localllm') return 0;
  const model = modelFor(llm, 'extraction');
  const pricing = cloudModelsOf(llm.chat_provider)?.find((candidate) => candidate.id === model)?.pricing ?? {
    input_per_million: llm.cost_input_per_million,
    output_per_million: llm.cost_output_per_million,
  };
  return (
    Math.round(((inputTokens * pricing.input_per_million + outputTokens * pricing.output_per_million) / 1e6) * 1e6) /
    1e6
  );
}
