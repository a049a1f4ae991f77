import { aiExtractJson } from './ai-extract-json.ts';
import { aiGenerateEmbedding } from './ai-generate-embedding.ts';
import { aiPrompt } from './ai-prompt.ts';
import { aiVectorSearch } from './ai-vector-search.ts';
import { dataExtract } from './data-extract.ts';
import { dataMerge } from './data-merge.ts';
import { httpRequest } from './http-request.ts';
import { logicConditional } from './logic-conditional.ts';
import { logicLoop } from './logic-loop.ts';
import { templatesList } from './templates-list.ts';
import type { SystemToolDefinition } from './types.ts';

/** The built-in tools, ordered by id. */
export const systemTools: readonly SystemToolDefinition[] = [
  aiExtractJson,
  aiGenerateEmbedding,
  aiPrompt,
  aiVectorSearch,
  dataExtract,
  dataMerge,
  httpRequest,
  logicConditional,
  logicLoop,
  templatesList,
];

const byId = new Map(systemTools.map((tool) => [tool.id, tool]));

export function findSystemTool(id: string): SystemToolDefinition | undefined {
  return byId.get(id);
}

/** When the catalogue shipped: system tools are part of the build, so their timestamps are the release's. */
const releasedAt = '2026-11-01T00:00:00.000Z';

export function systemToolSummary(tool: SystemToolDefinition) {
  return {
    id: tool.id,
    category: tool.category,
    name: tool.name,
    description: tool.description,
    version: tool.version,
    is_active: true,
    created_at: releasedAt,
    updated_at: releasedAt,
  };
}

export function systemToolDetail(tool: SystemToolDefinition) {
  return { ...systemToolSummary(tool), input_schema: tool.inputSchema, output_schema: tool.outputSchema };
}
