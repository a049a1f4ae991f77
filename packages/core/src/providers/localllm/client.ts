import { kindOfStatus, LlmError } from '../llm/errors.ts';
import { describeError } from '@rhizome/contracts/errors';
import { modelServerFetch, RefusedAddressError } from '../model-server-fetch.ts';

/** One entry of `GET /api/tags`. */
export interface OllamaModel {
  name: string;
  model: string;
  modified_at: string;
  size: number;
  digest: string;
  details?: { format?: string; family?: string; parameter_size?: string; quantization_level?: string };
}

/** `POST /api/show`; `capabilities` (completion, tools, thinking, embedding, vision, …) exists since Ollama 0.6. */
export interface OllamaModelInfo {
  modelfile?: string;
  parameters?: string;
  template?: string;
  details?: OllamaModel['details'];
  model_info?: Record<string, unknown>;
  capabilities?: string[];
}

/**
 * A small client for the parts of the Ollama API the service calls directly (chat goes through the AI
 * SDK). Failures are `LlmError`s: HTTP statuses by `kindOfStatus`, no answer at all as `unavailable`
 * with the network error as `cause`, a body that is not the expected JSON as `unavailable` with status.
 */
export class OllamaClient {
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async version(signal: AbortSignal): Promise<string> {
    const body = await this.request('GET', '/version', undefined, signal);
    if (typeof body.version !== 'string') throw invalidResponse('/api/version', 200);
    return body.version;
  }

  async tags(signal: AbortSignal): Promise<OllamaModel[]> {
    const body = await this.request('GET', '/tags', undefined, signal);
    if (!Array.isArray(body.models)) throw invalidResponse('/api/tags', 200);
    return body.models as OllamaModel[];
  }

  async show(model: string, signal: AbortSignal): Promise<OllamaModelInfo> {
    return (await this.request('POST', '/show', { model }, signal)) as OllamaModelInfo;
  }

  /** One vector per text, in order. Never pulls a missing model: Ollama answers 404 and we report it. */
  async embed(model: string, texts: string[], signal: AbortSignal): Promise<number[][]> {
    const body = await this.request('POST', '/embed', { model, input: texts }, signal);
    if (!Array.isArray(body.embeddings)) throw invalidResponse('/api/embed', 200);
    return body.embeddings as number[][];
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const url = `${this.baseUrl}/api${path}`;
    let response: Response;
    let text: string;
    try {
      response = await modelServerFetch(url, {
        method,
        signal,
        ...(payload === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }),
      });
      text = await response.text();
    } catch (error) {
      throw noAnswer(url, error, signal);
    }
    const { status } = response;
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const reason = ollamaError(text) ?? (text.trim().slice(0, 200) || response.statusText);
      throw new LlmError(
        kindOfStatus(status),
        `${url} answered ${status}: ${reason}`,
        status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      );
    }
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
    } catch {
      // falls through to the error below
    }
    throw invalidResponse(url, status);
  }
}

/** The message of Ollama's `{"error": "..."}` body, if the text is one. */
export function ollamaError(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') return body.error;
  } catch {
    // not JSON
  }
  return null;
}

function invalidResponse(url: string, status: number): LlmError {
  return new LlmError('unavailable', `${url} did not answer like an Ollama server`, status);
}

function noAnswer(url: string, error: unknown, signal: AbortSignal): LlmError {
  const failure = signal.aborted
    ? new LlmError(
        isTimeout(signal.reason) ? 'timeout' : 'cancelled',
        `${url}: ${isTimeout(signal.reason) ? 'no answer in time' : 'cancelled'}`,
      )
    : new LlmError('unavailable', `${url}: ${networkMessage(error)}`);
  failure.cause = error;
  return failure;
}

/** Whether `name` is among the installed model names; a name without a tag means `:latest`, as in Ollama. */
export function hasModel(installed: readonly string[], name: string): boolean {
  const wanted = withTag(name);
  return installed.some((model) => withTag(model) === wanted);
}

function withTag(name: string): string {
  const lastPart = name.slice(name.lastIndexOf('/') + 1);
  return lastPart.includes(':') ? name : `${name}:latest`;
}

/** Whether an abort reason means a time limit ran out (AbortSignal.timeout or a policy's idle limit). */
export function isTimeout(reason: unknown): boolean {
  return (
    (reason instanceof DOMException && reason.name === 'TimeoutError') ||
    (reason instanceof LlmError && reason.kind === 'timeout')
  );
}

function networkMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return describeError(cause);
}

/** The answer of `POST /settings/localllm/verify`; always sent with status 200. */
export interface VerifyResult {
  success: boolean;
  message: string;
  version: string | null;
  models: string[] | null;
  model_count: number | null;
  response_time_ms: number | null;
  /**
   * Machine-readable failure class: no_model_server, refused_address, dns, timeout, invalid_url, network. A closed
   * port and a server that is not Ollama are both no_model_server, so verify tells nothing about other services.
   */
  error_type: string | null;
}

/** Checks that `url` (an instance base URL, without `/api`) is an answering Ollama server and lists its models. */
export async function verifyServer(url: string, timeoutMs: number): Promise<VerifyResult> {
  const failed = (error_type: string, message: string, response_time_ms: number | null): VerifyResult => ({
    success: false,
    message,
    version: null,
    models: null,
    model_count: null,
    response_time_ms,
    error_type,
  });
  if (!isHttpUrl(url)) return failed('invalid_url', `"${url}" is not an http:// or https:// URL`, null);
  const client = new OllamaClient(url);
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  try {
    const version = await client.version(signal);
    const response_time_ms = Math.round(performance.now() - started);
    const models = (await client.tags(signal)).map((model) => model.name);
    return {
      success: true,
      message: `Ollama ${version} answers with ${models.length} model(s)`,
      version,
      models,
      model_count: models.length,
      response_time_ms,
      error_type: null,
    };
  } catch (error) {
    const type = verifyErrorType(error);
    return failed(type, verifyMessage(type, client.baseUrl, timeoutMs, error), Math.round(performance.now() - started));
  }
}

function isHttpUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}

function verifyErrorType(error: unknown): string {
  if (!(error instanceof LlmError)) return 'network';
  if (error.kind === 'timeout') return 'timeout';
  if (error.cause instanceof RefusedAddressError) return 'refused_address';
  // Every Ollama answers /api/version with its JSON: any other answer is some other server.
  if (error.status !== null) return 'no_model_server';
  switch (networkCode(error.cause)) {
    case 'ECONNREFUSED':
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'no_model_server';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'dns';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timeout';
    default:
      return 'network';
  }
}

/** The system error code somewhere down fetch's `cause` chain (TypeError → undici error → AggregateError …). */
function networkCode(error: unknown, depth = 0): string | null {
  if (!(error instanceof Error) || depth > 4) return null;
  if ('code' in error && typeof error.code === 'string') return error.code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const code = networkCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return networkCode(error.cause, depth + 1);
}

function verifyMessage(type: string, url: string, timeoutMs: number, error: unknown): string {
  switch (type) {
    case 'no_model_server':
      return `No Ollama server answers at ${url}: is it running there, and is the URL its base URL (without /api)?`;
    case 'refused_address':
      return ((error as LlmError).cause as RefusedAddressError).message;
    case 'dns':
      return `The host of ${url} could not be resolved`;
    case 'timeout':
      return `${url} did not answer within ${timeoutMs} ms`;
    default:
      return describeError(error);
  }
}
