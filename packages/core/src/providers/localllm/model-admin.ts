/**
 * Managing the models of local (Ollama) model servers from Settings: one model's details, pulling a model
 * with its progress, and removing one. A request names a server by its instance id, or (pull and remove)
 * goes to every enabled server in turn.
 */
import type { LocalLlmInstance, Settings } from '@rhizome/contracts/settings';
import type { PullEventBody } from '@rhizome/contracts/api/localllm';
import { BadInput, describeError, NotFound } from '@rhizome/contracts/errors';
import { LlmError, llmFailure } from '../llm/errors.ts';
import { modelServerFetch } from '../model-server-fetch.ts';
import { OllamaClient, ollamaError } from './client.ts';

/** The named server (enabled or not), else every enabled one; 404 for an unknown id, 422 when none is enabled. */
export function localServers(settings: Settings, instanceId?: string): LocalLlmInstance[] {
  const instances = settings.llm.localllm_instances;
  if (instanceId !== undefined) {
    const named = instances.find((instance) => instance.id === instanceId);
    if (!named) throw NotFound.resource('Local model server', instanceId);
    return [named];
  }
  const enabled = instances.filter((instance) => instance.enabled);
  if (enabled.length === 0)
    throw BadInput.field('No local model server is enabled (llm.localllm_instances)', 'instance_id');
  return enabled;
}

export interface ModelDetailsBody {
  instance_id: string;
  modelfile: string;
  parameters: string;
  template: string;
  details: Record<string, string>;
  model_info: Record<string, unknown>;
  capabilities: string[];
}

/** `POST /api/show` on one server (`default` unless named); a model the server lacks is a 404. */
export async function modelDetails(
  settings: Settings,
  model: string,
  instanceId = 'default',
): Promise<ModelDetailsBody> {
  const [server] = localServers(settings, instanceId);
  const signal = AbortSignal.timeout(settings.timeouts.localllm_verify_timeout * 1000);
  try {
    const info = await new OllamaClient(server.base_url).show(model, signal);
    return {
      instance_id: server.id,
      modelfile: info.modelfile ?? '',
      parameters: info.parameters ?? '',
      template: info.template ?? '',
      details: { ...info.details },
      model_info: info.model_info ?? {},
      capabilities: info.capabilities ?? [],
    };
  } catch (error) {
    if (error instanceof LlmError && error.kind === 'model_missing')
      throw new NotFound(`Model '${model}' is not on the local model server '${server.id}'`, {
        resource_type: 'model',
        identifier: model,
        instance_id: server.id,
      });
    throw error instanceof LlmError ? llmFailure(error) : error;
  }
}

/** Ollama's pull progress lines as events; an `{"error"}` line ends the server's pull. */
function pullEvent(line: Record<string, unknown>, instanceId: string): PullEventBody {
  if (typeof line.error === 'string') return { status: 'error', instance_id: instanceId, error: line.error };
  if (line.status === 'success') return { status: 'success', instance_id: instanceId };
  return {
    status: 'downloading',
    instance_id: instanceId,
    completed: typeof line.completed === 'number' ? line.completed : 0,
    total: typeof line.total === 'number' ? line.total : 0,
    message: typeof line.status === 'string' ? line.status : '',
  };
}

/** Pulls on one server, yielding its progress; ends with its success or error. */
async function* pullOn(server: LocalLlmInstance, model: string, signal: AbortSignal): AsyncGenerator<PullEventBody> {
  const url = `${server.base_url.replace(/\/+$/, '')}/api/pull`;
  let response: Response;
  try {
    response = await modelServerFetch(url, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true }),
    });
  } catch (error) {
    yield { status: 'error', instance_id: server.id, error: `${url}: ${describeError(error)}` };
    return;
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    yield { status: 'error', instance_id: server.id, error: ollamaError(text) ?? `${url} answered ${response.status}` };
    return;
  }
  try {
    yield* progressLines(response.body, server.id);
  } catch (error) {
    if (!signal.aborted) yield { status: 'error', instance_id: server.id, error: `${url}: ${describeError(error)}` };
  }
}

/** The NDJSON progress of one pull as events, up to its success or error (or an error of its own when it just stops). */
async function* progressLines(body: ReadableStream<Uint8Array>, instanceId: string): AsyncGenerator<PullEventBody> {
  const decoder = new TextDecoder();
  let buffered = '';
  let ended = false;
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (!text) continue;
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      const event = pullEvent(line, instanceId);
      yield event;
      if (event.status !== 'downloading') ended = true;
    }
    if (ended) return;
  }
  yield { status: 'error', instance_id: instanceId, error: 'the server ended the pull without reporting success' };
}

/**
 * Pulls `model` onto the named server, or each enabled one in turn; stops when `signal` aborts. The servers
 * are resolved at once, so an unknown one fails the call rather than the stream.
 */
export function pullModel(
  settings: Settings,
  model: string,
  instanceId: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<PullEventBody> {
  const servers = localServers(settings, instanceId);
  return (async function* () {
    for (const server of servers) {
      if (signal.aborted) return;
      yield* pullOn(server, model, signal);
    }
  })();
}

/** `DELETE /api/delete` on the named server, or every enabled one; each answers for itself. */
export async function removeModel(
  settings: Settings,
  model: string,
  instanceId?: string,
): Promise<{ success: boolean; results: { instance_id: string; success: boolean; error: string | null }[] }> {
  const servers = localServers(settings, instanceId);
  const signal = AbortSignal.timeout(settings.timeouts.localllm_verify_timeout * 1000);
  const results = await Promise.all(
    servers.map(async (server) => {
      const url = `${server.base_url.replace(/\/+$/, '')}/api/delete`;
      try {
        const response = await modelServerFetch(url, {
          method: 'DELETE',
          signal,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model }),
        });
        const text = await response.text();
        if (response.ok) return { instance_id: server.id, success: true, error: null };
        return {
          instance_id: server.id,
          success: false,
          error: ollamaError(text) ?? `${url} answered ${response.status}`,
        };
      } catch (error) {
        return { instance_id: server.id, success: false, error: `${url}: ${describeError(error)}` };
      }
    }),
  );
  return { success: results.every((result) => result.success), results };
}
