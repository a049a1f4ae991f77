import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { BadInput } from '@rhizome/contracts/errors';

export const extractSourcePrompt: Prompt = {
  name: 'extract_source',
  title: 'Extract this source into the knowledge graph',
  description:
    'Walks you through extracting the entities and relationships of one source yourself (client-driven extraction).',
  arguments: [{ name: 'source_id', description: 'the source to extract (see list_sources)', required: true }],
};

/** The steps of client-driven extraction, for one source. */
export function extractSourceMessages(args: Record<string, string> | undefined): GetPromptResult {
  const sourceId = args?.source_id?.trim();
  if (!sourceId) throw BadInput.field('source_id is required', 'source_id');
  const text = [
    `Extract the knowledge graph of source ${sourceId} yourself, with the Rhizome tools:`,
    `1. Call get_extraction_tasks with source_id "${sourceId}". It starts the run (the source shows mcp_extracting) and returns the first groups; page with offset.`,
    '2. For each task, read its prompt: numbered sentences (S1, S2 …), the entity types of the domain and the exact line format. Answer it as the prompt asks, writing only E and P lines.',
    '3. Call submit_chunk_extraction with the group_index, pass "entities" and your lines (one record per item). The reply counts the lines that were rejected and why, lists the entities kept (0-based) and gives the relationship prompt.',
    '4. Answer the relationship prompt with R lines over those entity indices and submit them with pass "relationships". A group that kept fewer than two entities is done after step 3.',
    '5. Quote only what the sentences state; cite the sentence numbers (sent_ref) precisely: entities or relationships without evidence in the cited sentences are dropped.',
    '6. When every group is done (groups_left 0), call finalize_extraction. It merges the groups, writes them to the graph and waits until the source is committed.',
    'Check progress at any time with source_progress. A run left untouched for mcp.abandon_after_hours ends in error.',
  ].join('\n');
  return {
    description: `Client-driven extraction of ${sourceId}`,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
