/** Error codes of spec Part A "Errors"; every failure leaves the API as `{error, message, details}`. */
export const ErrorCode = {
  validationError: 'VALIDATION_ERROR',
  validationFailed: 'VALIDATION_FAILED',
  authRequired: 'AUTH_REQUIRED',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
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

/** A failure that the HTTP layer turns into the spec's envelope with `status`. */
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
