import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, DomainError, ErrorCode, type FailureKind } from '@rhizome/contracts/errors';
import type { Logger } from '@rhizome/core/logging';
import { QueueFullError, QueueUnavailableError } from '@rhizome/queue';

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(
    new ApiError(404, ErrorCode.notFound, `No route for ${req.method} ${req.path}`, {
      resource_type: 'route',
      identifier: req.path,
    }),
  );
};

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  message?: string;
}

/** The one place that turns any failure into the `{error, message, details}` envelope (docs/api-conventions.md#errors). */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = toApiError(error);
    if (clientWentAway(error, res)) {
      logger.warning(
        `${req.method} ${req.originalUrl}: the client closed the connection before the response was complete`,
      );
    } else if (apiError.status > 500) {
      // An outside service (the registry, a model server) is unreachable or failing: expected, no stack.
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      logger.warning(`${req.method} ${req.originalUrl}: ${apiError.status} ${apiError.message}${cause}`);
    } else if (apiError.status >= 500) {
      logger.error(
        `${req.method} ${req.originalUrl} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(apiError.status).json(apiError.toBody());
  };
}

const disconnectCodes = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** The response failed because the client disconnected (a download it closed), not because of us. */
function clientWentAway(error: unknown, res: { destroyed: boolean; headersSent: boolean }): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && disconnectCodes.has(code) && (res.destroyed || res.headersSent);
}

/** A failure the caller can be told about (a request-level or domain refusal), as opposed to a fault of ours. */
export function isRefusal(error: unknown): error is ApiError | DomainError {
  return error instanceof ApiError || error instanceof DomainError;
}

/** The one mapping from what went wrong in the domain to an HTTP status. */
const statusOfKind: Record<FailureKind, number> = {
  bad_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  expired: 408,
  conflict: 409,
  not_ready: 409,
  too_large: 413,
  invalid: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** What the file system (and SQLite, which reports it as SQLITE_FULL) says when a write finds no room. */
const outOfSpaceCodes = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);

/** The failure, or one of its causes, is a write that found no space (a full disk, a quota, a file-size limit). */
function isOutOfSpace(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && outOfSpaceCodes.has(code)) return true;
  }
  return false;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isOutOfSpace(error)) {
    return new ApiError(
      507,
      ErrorCode.insufficientStorage,
      'No space left to store this change (the disk of the data directory is full, or a size limit was reached): ' +
        'free some space and try again; reading keeps working',
    );
  }
  if (error instanceof DomainError) {
    const apiError = new ApiError(statusOfKind[error.kind], error.code, error.message, error.details);
    if (error.cause !== undefined) apiError.cause = error.cause;
    return apiError;
  }
  if (error instanceof QueueFullError || error instanceof QueueUnavailableError)
    return ApiError.http(503, error.message);
  // Every pooled connection stayed busy past the acquire timeout (a saturated machine): try again, not a fault.
  if ((error as Error | null)?.name === 'KnexTimeoutError')
    return ApiError.http(503, 'The database is busy: try again in a moment');
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.too.large') return ApiError.payloadTooLarge(parserError.limit ?? 0);
  if (parserError?.type === 'entity.parse.failed') {
    return ApiError.validation(
      [{ loc: ['body'], msg: 'Malformed JSON', type: 'json_invalid' }],
      'Request body is not valid JSON',
    );
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return ApiError.http(415, parserError.message ?? 'Unsupported encoding');
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return ApiError.http(parserError.status, parserError.message ?? 'Bad request');
  }
  return new ApiError(500, ErrorCode.internalError, 'An unexpected error occurred');
}
