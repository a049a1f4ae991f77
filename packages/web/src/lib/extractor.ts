import { llmEndpoints } from '@rhizome/contracts/api/llm';
import { useEndpoint } from './data/use-endpoint.ts';

/**
 * What reads the passages and finds entities: the built-in provider is a pattern-based extractor with no
 * model (its calls spend no tokens worth counting), any other provider is an AI model.
 */
export type Extractor = 'builtin' | 'model';

/** The configured extractor; undefined while it loads or when it cannot be read. */
export function useExtractor(): Extractor | undefined {
  const status = useEndpoint(llmEndpoints.status);
  return status.data && (status.data.provider === 'builtin' ? 'builtin' : 'model');
}

export const extractorName = (extractor: Extractor | undefined) =>
  extractor === 'builtin' ? 'the built-in extractor' : extractor === 'model' ? 'the AI model' : undefined;
