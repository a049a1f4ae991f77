import type { ErrorBody, ValidationIssue } from '@rhizome/contracts/errors';

/** A failed API call: the error envelope's code and message, with the validation issues when there are any. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'RequestError';
  }

  get issues(): ValidationIssue[] {
    const errors = this.details?.errors;
    return Array.isArray(errors) ? (errors as ValidationIssue[]) : [];
  }

  /** The issue of one field (the last element of its `loc`), to show next to that field. */
  issueFor(field: string): string | undefined {
    return this.issues.find((issue) => issue.loc.at(-1) === field)?.msg;
  }
}

/** The error of a non-2xx response; bodies that are not the envelope (a proxy's page) still give a readable message. */
export async function requestErrorOf(response: Response): Promise<RequestError> {
  const text = await response.text().catch(() => '');
  let body: Partial<ErrorBody> | null = null;
  try {
    body = JSON.parse(text) as Partial<ErrorBody>;
  } catch {
    // not JSON
  }
  // OpenAI-compatible paths answer `{error: {message, type, code}}` instead of the envelope.
  const nested =
    typeof body?.error === 'object' && body.error !== null
      ? (body.error as { message?: unknown; code?: unknown })
      : null;
  const code =
    typeof body?.error === 'string'
      ? body.error
      : typeof nested?.code === 'string'
        ? nested.code
        : `HTTP_${response.status}`;
  const given = nested ? nested.message : body?.message;
  const message = typeof given === 'string' && given ? given : fallbackMessage(response.status, code);
  return new RequestError(response.status, code, message, body?.details ?? null);
}

function fallbackMessage(status: number, code: string): string {
  if (status === 401) return 'Your session has ended: sign in again.';
  if (status === 413) return 'The upload is too large.';
  if (status === 429) return 'Too many attempts: wait a moment and try again.';
  if (status === 502 || status === 503 || status === 504) return 'The server is not reachable right now.';
  return `The request failed (${code}).`;
}
