import { kindOfStatus, LlmError } from '../llm/errors.ts';
import { modelServerFetch } from '../model-server-fetch.ts';

/** One JSON request to a hosted provider with plain fetch; every failure becomes an `LlmError`. */
export async function requestJson(
  url: string,
  init: { headers: Record<string, string>; body?: unknown; signal: AbortSignal },
): Promise<unknown> {
  const { headers, body, signal } = init;
  let response: Response;
  try {
    response = await modelServerFetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw signal.aborted ? cancelled() : new LlmError('unavailable', `cannot reach ${url}: ${reasonOf(error)}`);
  }
  if (!response.ok) throw await errorOf(response);
  try {
    return await response.json();
  } catch (error) {
    throw signal.aborted
      ? cancelled()
      : new LlmError('unavailable', `unreadable answer from ${url}: ${reasonOf(error)}`);
  }
}

/** `base` without trailing slashes, so `${base}/path` never doubles one. */
export function withoutTrailingSlash(base: string): string {
  return base.replace(/\/+$/, '');
}

const cancelled = () => new LlmError('cancelled', 'the call was cancelled');

async function errorOf(response: Response): Promise<LlmError> {
  const text = await response.text().catch(() => '');
  const retryAfter = response.headers.get('retry-after');
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  return new LlmError(
    kindOfStatus(response.status),
    `HTTP ${response.status}: ${providerMessage(text) ?? response.statusText}`,
    response.status,
    Number.isFinite(seconds) ? seconds : null,
  );
}

/** OpenAI, Anthropic and Gemini all put the reason in `error.message`. */
function providerMessage(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim().slice(0, 300) || null;
}

/** fetch says only "fetch failed"; the cause names the real problem (ECONNREFUSED, ENOTFOUND, …). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause =
    error.cause instanceof Error ? ((error.cause as NodeJS.ErrnoException).code ?? error.cause.message) : null;
  return cause ? `${error.message} (${cause})` : error.message;
}
