import { LlmError } from '../llm/errors.ts';

export interface ApiKeySpec {
  /** For messages, e.g. `OpenAI`. */
  provider: string;
  /** Where the operator sets the key, e.g. `llm.openai_api_key`. */
  setting: string;
  /** OpenAI-compatible servers often need no key. */
  optional?: boolean;
  headers(key: string): Record<string, string>;
}

/** The request headers that carry a provider's API key, or the error to report when a needed key is not set. */
export function keyHeaders(key: string | null, spec: ApiKeySpec): Record<string, string> | LlmError {
  if (key) return spec.headers(key);
  if (spec.optional) return {};
  return new LlmError('auth', `no ${spec.provider} API key is set (${spec.setting})`);
}
