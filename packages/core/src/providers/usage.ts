import type { Settings } from '@rhizome/contracts/settings';
import { cloudModelsOf } from './catalog/cloud-models.ts';
import type { LlmStatsRow } from './metrics.ts';

const hourMs = 3_600_000;

/** Calls, errors and tokens summed over every provider, model and operation. */
export function usageTotals(rows: readonly LlmStatsRow[]) {
  const sum = (pick: (row: LlmStatsRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    calls: sum((row) => row.calls),
    errors: sum((row) => row.errors),
    input_tokens: sum((row) => row.input_tokens),
    output_tokens: sum((row) => row.output_tokens),
  };
}

/** Hosted providers cost money (catalogue prices, else the settings' defaults); builtin and local calls do not. */
export function estimatedCost(rows: readonly LlmStatsRow[], settings: Settings): number {
  const paid = rows.filter((row) => row.provider !== 'builtin' && row.provider !== 'localllm');
  const cost = paid.reduce((total, row) => {
    const pricing = cloudModelsOf(row.provider)?.find((model) => model.id === row.model)?.pricing;
    const input = pricing?.input_per_million ?? settings.llm.cost_input_per_million;
    const output = pricing?.output_per_million ?? settings.llm.cost_output_per_million;
    return total + (row.input_tokens * input + row.output_tokens * output) / 1e6;
  }, 0);
  return Math.round(cost * 10_000) / 10_000;
}

/** The moment `hours` before now, from which usage is counted. */
export const hoursAgo = (hours: number): Date => new Date(Date.now() - hours * hourMs);

/** Whether either provider is a local model server (whose instances a health check probes). */
export function usesLocalServers(settings: Settings): boolean {
  return settings.llm.chat_provider === 'localllm' || settings.embedding.provider === 'localllm';
}
