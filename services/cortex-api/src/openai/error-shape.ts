import type { RequestHandler } from 'express';

/** OpenAI's error body: what its SDKs and chat front ends parse into a readable failure. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

interface Envelope {
  error: string;
  message?: string;
  details?: Record<string, unknown> | null;
}

const isEnvelope = (body: unknown): body is Envelope => typeof (body as Envelope | null)?.error === 'string';

/** OpenAI answers a request it cannot validate with 400, never 422. */
const openAiStatus = (status: number) => (status === 422 ? 400 : status);

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return status === 503 ? 'service_unavailable_error' : 'server_error';
  return 'invalid_request_error';
}

function errorCode(status: number, envelope: Envelope): string | null {
  if (status === 401) return 'invalid_api_key';
  if (typeof envelope.details?.openai_code === 'string') return envelope.details.openai_code;
  return envelope.error.toLowerCase();
}

/** The request field an error is about: a validation issue's location, or the field the refusal names. */
function errorParam(envelope: Envelope): string | null {
  const details = envelope.details ?? {};
  if (typeof details.field === 'string') return details.field;
  const [issue] = Array.isArray(details.errors) ? (details.errors as { loc?: (string | number)[] }[]) : [];
  const loc = issue?.loc?.filter((part) => part !== 'body');
  return loc?.length ? loc.join('.') : null;
}

export function toOpenAiError(status: number, body: unknown): OpenAiErrorBody {
  const envelope: Envelope = isEnvelope(body) ? body : { error: `http_${status}` };
  const message =
    envelope.message ||
    (status === 401
      ? 'Authentication required: pass an API key as the bearer token.'
      : `The request failed (${envelope.error}).`);
  return {
    error: { message, type: errorType(status), param: errorParam(envelope), code: errorCode(status, envelope) },
  };
}

/**
 * Mounted before authentication on the OpenAI-compatible paths: every error answered there — the auth
 * check's 401, a validation failure, a domain refusal — leaves in OpenAI's shape instead of the envelope.
 */
export const openAiErrorShape: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode < 400 || !isEnvelope(body)) return json(body);
    const status = res.statusCode;
    res.status(openAiStatus(status));
    return json(toOpenAiError(status, body));
  };
  next();
};
