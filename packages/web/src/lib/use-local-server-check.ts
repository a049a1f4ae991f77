import { useState } from 'react';
import { llmEndpoints } from '@rhizome/contracts/api/llm';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api, messageOf } from './api.ts';

export type ServerCheck = ResponseOf<typeof llmEndpoints.verifyLocal>;

/**
 * Connection tests of local model servers (POST /settings/localllm/verify), by address: what each
 * answered (version, models), 'checking' while one runs, or why it could not be reached.
 */
export function useLocalServerCheck(): {
  checks: Record<string, ServerCheck | 'checking'>;
  verify: (url: string) => Promise<ServerCheck>;
} {
  const [checks, setChecks] = useState<Record<string, ServerCheck | 'checking'>>({});
  const verify = async (url: string) => {
    setChecks((current) => ({ ...current, [url]: 'checking' }));
    let result: ServerCheck;
    try {
      result = await api.call(llmEndpoints.verifyLocal, { body: { url: url.trim() } });
    } catch (error) {
      result = {
        success: false,
        message: messageOf(error),
        version: null,
        models: null,
        model_count: null,
        response_time_ms: null,
        error_type: 'request',
      };
    }
    setChecks((current) => ({ ...current, [url]: result }));
    return result;
  };
  return { checks, verify };
}
