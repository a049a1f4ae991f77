import { describeError } from '@rhizome/contracts/errors';
/** A failure retrying cannot fix (bad input, missing model, unsupported payload): fail at once. */
export class PermanentTaskError extends Error {
  constructor(
    message: string,
    readonly type = 'PermanentError',
  ) {
    super(message);
    this.name = 'PermanentTaskError';
  }
}

/** Thrown by `checkCancelled()` once the task was cancelled; the runtime records nothing more. */
export class TaskCancelledError extends Error {
  constructor() {
    super('The task was cancelled');
    this.name = 'TaskCancelledError';
  }
}

export interface ClassifiedError {
  permanent: boolean;
  type: string;
  /** Safe to show through the API: no stack, bounded length. */
  message: string;
}

const permanentCodes = new Set(['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'EPERM']);

/**
 * What an error of another package can say about itself (the model providers' `LlmError` does): whether
 * retrying can help, and a machine-readable type for the task's `error_type`.
 */
export interface SelfClassifyingError {
  permanent: boolean;
  errorType: string;
}

/** Transient unless the handler or the error itself says otherwise, or it is a file-system error retrying cannot fix. */
export function classifyError(error: unknown): ClassifiedError {
  const message = describeError(error).slice(0, 2000) || 'Task failed';
  if (error instanceof PermanentTaskError) return { permanent: true, type: error.type, message };
  if (isSelfClassifying(error)) return { permanent: error.permanent, type: error.errorType, message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const type = error instanceof Error ? (error.name === 'Error' ? 'Error' : error.name) : 'Error';
  return { permanent: typeof code === 'string' && permanentCodes.has(code), type, message };
}

function isSelfClassifying(error: unknown): error is SelfClassifyingError {
  const candidate = error as Partial<SelfClassifyingError> | null;
  return typeof candidate?.permanent === 'boolean' && typeof candidate.errorType === 'string';
}

/** Retry delay after `attempt` failed: min(5·2^(attempt−1), 300) s, times a jitter in [0.5, 1.5). */
export function backoffMs(attempt: number, random = Math.random): number {
  return Math.min(5 * 2 ** (attempt - 1), 300) * 1000 * (0.5 + random());
}
