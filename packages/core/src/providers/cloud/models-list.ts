import { LlmError } from '../llm/errors.ts';
import type { ModelsCheck } from '../llm/port.ts';
import { requestJson } from './http.ts';

export interface ModelsList {
  /** The provider's name in messages, e.g. `OpenAI`. */
  label: string;
  url: string;
  /** Request headers, or the error that stops the check before any request (a missing API key). */
  headers: Record<string, string> | LlmError;
  /** The model ids in the provider's answer. */
  idsOf(body: unknown): string[];
}

/** A chat adapter's check: the provider's models list answers with our key, and names the models we use. */
export async function checkModelsList(list: ModelsList, models: string[], signal: AbortSignal): Promise<ModelsCheck> {
  if (list.headers instanceof LlmError) return unverified(list.headers.message);
  let listed: Set<string>;
  try {
    listed = new Set(list.idsOf(await requestJson(list.url, { headers: list.headers, signal })));
  } catch (error) {
    return unverified(
      error instanceof LlmError
        ? failureMessage(list.label, error)
        : `${list.label} answered with something other than a models list`,
    );
  }
  const missingModels = models.filter((model) => !listed.has(model));
  const message = missingModels.length
    ? `${list.label} answered but does not list ${missingModels.join(', ')}`
    : `${list.label} answered and lists every configured model`;
  return { verified: true, missingModels, message };
}

function unverified(message: string): ModelsCheck {
  return { verified: false, missingModels: [], message };
}

function failureMessage(label: string, error: LlmError): string {
  if (error.kind === 'auth') return `${label}: the API key was refused (${error.message})`;
  if (error.kind === 'cancelled') return `${label} did not answer before the check was cancelled or timed out`;
  if (error.status === null) return error.message;
  return `${label} answered ${error.message}`;
}
