import { RequestError } from '@rhizome/client';

/** The exit codes every command uses (documented in the README's "Command line" section). */
export const ExitCode = {
  ok: 0,
  /** The operation failed: the server refused it, or a source ended in error. */
  failed: 1,
  /** The command line was wrong: an unknown command or option, a missing argument. */
  usage: 2,
  /** No Rhizome server answered at the URL. */
  unreachable: 3,
  /** No API key, or the server refused it. */
  unauthorized: 4,
  /** What the command names does not exist. */
  notFound: 5,
  /** A source waits for a decision only a person makes (its domain to be confirmed), so it did not get where the command was to take it. */
  needsDecision: 6,
  /** The user ended a prompt (Ctrl+C), as a shell reports a process ended by SIGINT. */
  interrupted: 130,
} as const;

/** A failure a command reports in one line and ends with, instead of a stack trace. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly code: number = ExitCode.failed,
  ) {
    super(message);
  }
}

/** Authentication asked of a command that has no key at all: there was never a session or key to end, only none given. */
export function noCredentialFailure(error: unknown, url: string): CliFailure | null {
  if (!(error instanceof RequestError) || error.status !== 401 || error.code !== 'authentication_required') return null;
  return new CliFailure(
    `no credential is configured for ${url}: run 'rhizome login --url ${url}' (it stores a key for this machine), or set RHIZOME_API_KEY (or pass --api-key)`,
    ExitCode.unauthorized,
  );
}

/** The one-line message and exit code of whatever a command failed with. */
export function failureOf(error: unknown, url: string): CliFailure {
  if (error instanceof CliFailure) return error;
  if (error instanceof RequestError) {
    if (error.status === 401 || error.status === 403) {
      return new CliFailure(`${error.message} (run 'rhizome login', or set RHIZOME_API_KEY)`, ExitCode.unauthorized);
    }
    const detail = error.issues
      .map((issue) => `${issue.loc.filter((part) => part !== 'body' && part !== 'query').join('.')}: ${issue.msg}`)
      .join('; ');
    return new CliFailure(
      detail && !error.message.includes(detail) ? `${error.message}: ${detail}` : error.message,
      error.status === 404 ? ExitCode.notFound : ExitCode.failed,
    );
  }
  const cause = (error as { cause?: { code?: string } }).cause;
  if (error instanceof TypeError && /fetch failed/.test(error.message)) {
    return new CliFailure(
      `no Rhizome server answers at ${url}${cause?.code ? ` (${cause.code})` : ''}: start one with 'rhizome serve', or pass --url`,
      ExitCode.unreachable,
    );
  }
  throw error;
}
