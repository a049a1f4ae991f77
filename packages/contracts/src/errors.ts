/** The API's error codes; every failure leaves the API as `{error, message, details}` (docs/api-conventions.md). */
export const ErrorCode = {
  validationError: 'VALIDATION_ERROR',
  validationFailed: 'VALIDATION_FAILED',
  authRequired: 'AUTH_REQUIRED',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  insufficientStorage: 'INSUFFICIENT_STORAGE',
  operationError: 'OPERATION_ERROR',
  internalError: 'INTERNAL_ERROR',
  llmNotVerified: 'LLM_NOT_VERIFIED',
  extractionModelMissing: 'EXTRACTION_MODEL_MISSING',
  registryUpstreamError: 'REGISTRY_UPSTREAM_ERROR',
} as const;

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ErrorBody {
  error: string;
  message: string;
  details: Record<string, unknown> | null;
}

/** A failure that the HTTP layer turns into the error envelope (docs/api-conventions.md#errors) with `status`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return { error: this.code, message: this.message, details: this.details };
  }

  /** A plain HTTP exception: code `HTTP_<status>`. */
  static http(status: number, message: string, details: Record<string, unknown> | null = null): ApiError {
    return new ApiError(status, `HTTP_${status}`, message, details);
  }

  static notFound(resourceType: string, identifier: string): ApiError {
    return new ApiError(404, ErrorCode.notFound, `${resourceType} '${identifier}' not found`, {
      resource_type: resourceType,
      identifier,
    });
  }

  static badRequest(message: string, field?: string): ApiError {
    return new ApiError(400, ErrorCode.validationError, message, field ? { field } : null);
  }

  static conflict(message: string, details: Record<string, unknown> | null = null): ApiError {
    return new ApiError(409, ErrorCode.conflict, message, details);
  }

  static validation(errors: ValidationIssue[], message = 'Request validation failed'): ApiError {
    return new ApiError(422, ErrorCode.validationFailed, message, { errors });
  }

  static payloadTooLarge(limitBytes: number): ApiError {
    return new ApiError(413, ErrorCode.payloadTooLarge, `Payload exceeds the limit of ${limitBytes} bytes`, {
      limit_bytes: limitBytes,
    });
  }
}

/** What went wrong, in the domain's words; only the HTTP layer turns a kind into a status code. */
export type FailureKind =
  | 'bad_input'
  | 'invalid'
  | 'not_found'
  | 'conflict'
  | 'not_ready'
  | 'unauthenticated'
  | 'forbidden'
  | 'expired'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable';

/** A failure the domain expects and can name: what the caller asked for cannot be done as asked. */
export abstract class DomainError extends Error {
  abstract readonly kind: FailureKind;
  constructor(
    message: string,
    readonly code: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A request that cannot be acted on as given (a wrong state, a malformed value); no field-by-field issues. */
export class BadInput extends DomainError {
  readonly kind = 'bad_input';
  constructor(message: string, details: Record<string, unknown> | null = null) {
    super(message, ErrorCode.validationError, details);
  }

  /** Names the one field at fault, when there is one. */
  static field(message: string, field?: string): BadInput {
    return new BadInput(message, field ? { field } : null);
  }
}

/** A value that fails validation, with one issue per field at fault. */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
  constructor(
    readonly issues: ValidationIssue[],
    message = 'Request validation failed',
  ) {
    super(message, ErrorCode.validationFailed, { errors: issues });
  }
}

export class NotFound extends DomainError {
  readonly kind = 'not_found';
  constructor(message: string, details: Record<string, unknown> | null = null) {
    super(message, ErrorCode.notFound, details);
  }

  /** One resource by its identifier: "Source 'src_1' not found". */
  static resource(resourceType: string, identifier: string): NotFound {
    return new NotFound(`${resourceType} '${identifier}' not found`, { resource_type: resourceType, identifier });
  }
}

export class Conflict extends DomainError {
  readonly kind = 'conflict';
  constructor(message: string, details: Record<string, unknown> | null = null, code: string = ErrorCode.conflict) {
    super(message, code, details);
  }
}

/** Something the operation needs is not ready yet (a model not verified, a model missing, setup not run). */
export class NotReady extends DomainError {
  readonly kind = 'not_ready';
  constructor(message: string, details: Record<string, unknown> | null = null, code = 'HTTP_409') {
    super(message, code, details);
  }
}

export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
  constructor(message: string, details: Record<string, unknown> | null = null, code = 'HTTP_401') {
    super(message, code, details);
  }
}

export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
  constructor(message: string, details: Record<string, unknown> | null = null) {
    super(message, 'HTTP_403', details);
  }
}

/** A code, link or request that was valid once and has run out. */
export class Expired extends DomainError {
  readonly kind = 'expired';
  constructor(message: string) {
    super(message, 'HTTP_408');
  }
}

export class TooLarge extends DomainError {
  readonly kind = 'too_large';
  constructor(limitBytes: number, message = `Payload exceeds the limit of ${limitBytes} bytes`) {
    super(message, ErrorCode.payloadTooLarge, { limit_bytes: limitBytes });
  }
}

export class RateLimited extends DomainError {
  readonly kind = 'rate_limited';
  constructor(message: string, details: Record<string, unknown> | null = null) {
    super(message, 'HTTP_429', details);
  }
}

/** An outside service (a model server, the registry) or a shared resource cannot serve the request now. */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
  constructor(message: string, details: Record<string, unknown> | null = null, code = 'HTTP_503') {
    super(message, code, details);
  }
}

/** The message of anything thrown: an Error's message, or the value as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
